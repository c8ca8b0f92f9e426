import { LogbookError } from '../../topics/errors.js';

/**
 * The steps of handling one input, in order. Each is isolated: an input that fails one is
 * dead-lettered with the step's name and the batch goes on without it.
 *
 * - `route`: the record has a key and a value and belongs to this shard (else forwarded once);
 * - `quarantine`: the input made the shard fail twice in a row before (see suspect-inputs.ts);
 * - `decode`: the Avro value decodes to a command whose key matches the record's;
 * - `validate`: facts the machine cannot look up (an earlier run's id);
 * - `apply`: the pure state machine;
 * - `encode`: events, replies, commands for other shards, visibility rows, retention tombstones;
 * - `tasks`: task records (and the task queue's topics, created on first use);
 * - `size`: every record within the record limit;
 * - `guard`: a run's event ids are contiguous and never at or below its last one (DESIGN.md §3);
 * - `timer`: a due timer (no source record; the dead letter names the workflow and the timer).
 */
export const InputStep = {
  route: 'route',
  quarantine: 'quarantine',
  decode: 'decode',
  validate: 'validate',
  apply: 'apply',
  encode: 'encode',
  tasks: 'tasks',
  size: 'size',
  guard: 'guard',
  timer: 'timer',
} as const;
export type InputStep = (typeof InputStep)[keyof typeof InputStep];

/** One input's failure at one step: what is dead-lettered and answered. */
export class InputFailure extends LogbookError {
  constructor(
    readonly step: InputStep,
    code: string,
    message: string,
    cause?: unknown,
  ) {
    super(code, message, { cause });
  }
}

/** Default codes of failures that carry none of their own, by step. */
const STEP_CODES: Readonly<Record<InputStep, string>> = {
  route: 'ROUTE_FAILED',
  quarantine: 'QUARANTINED',
  decode: 'DECODE_FAILED',
  validate: 'VALIDATE_FAILED',
  apply: 'APPLY_FAILED',
  encode: 'ENCODE_FAILED',
  tasks: 'TASKS_FAILED',
  size: 'OUTPUT_TOO_LARGE',
  guard: 'HISTORY_GUARD',
  timer: 'TIMER_FAILED',
};

/**
 * Runs one step of one input. A failure becomes an {@link InputFailure} naming the step, except
 * a retriable one (a registry or broker outage is not the input's fault): that propagates, so
 * the whole batch is retried and nothing is dead-lettered for it.
 */
export async function inStep<T>(step: InputStep, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InputFailure) throw error;
    if ((error as { retriable?: unknown } | null)?.retriable === true) throw error;
    const code = error instanceof LogbookError ? error.code : STEP_CODES[step];
    // A stack overflow or a non-Error throw still names what happened.
    const message = error instanceof Error ? error.message : String(error);
    throw new InputFailure(step, code, `${step} failed: ${message}`, error);
  }
}
