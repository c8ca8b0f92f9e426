/**
 * Continue-as-new: the run ends and a new run of the same workflow id starts with a fresh history
 * and the given arguments (Temporal's `continueAsNew` / `makeContinueAsNewFunc`). The call throws a
 * {@link ContinueAsNew} that the runtime turns into the `ContinueAsNewWorkflowExecution` command
 * when it escapes the workflow function — so code after it never runs, and a `try`/`finally`
 * around it still runs its `finally`.
 * @module
 */
import { currentActivator } from './current-activator.js';
import { optionalDurationToMs, type Duration } from './duration.js';

/** What the new run is: its type, task queue, encoded arguments and timeouts (null = the current run's). */
export interface ContinueAsNewCommand {
  workflowType: string;
  taskQueue: string | null;
  /** Encoded payloads (opaque to the sandbox). */
  args: unknown[];
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number | null;
}

/**
 * Thrown by {@link continueAsNew}: not a failure, the way a run hands over to its next run. Let it
 * propagate out of the workflow function (catching it and carrying on cancels the hand-over).
 */
export class ContinueAsNew extends Error {
  constructor(readonly command: ContinueAsNewCommand) {
    super(`continue as new: workflow ${command.workflowType}`);
    this.name = 'ContinueAsNew';
  }
}

/** Options of {@link makeContinueAsNewFunc}. Unset values are the current run's. */
export interface ContinueAsNewOptions {
  /** Another workflow type (exported by the same bundle, or by workers of `taskQueue`). */
  workflowType?: string;
  taskQueue?: string;
  workflowRunTimeout?: Duration;
  workflowTaskTimeout?: Duration;
}

/** A workflow function's arguments. */
type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : unknown[];

/**
 * A function that continues the run as new with these options; call it with the new run's
 * arguments. Arguments are encoded at the call, as activity arguments are.
 * @example
 * const continueAsV2 = makeContinueAsNewFunc<typeof pollerV2>({ workflowType: 'pollerV2' });
 * await continueAsV2({ cursor });
 */
export function makeContinueAsNewFunc<F extends (...args: never[]) => unknown>(options: ContinueAsNewOptions = {}): (...args: ArgsOf<F>) => Promise<never> {
  const workflowRunTimeoutMs = optionalDurationToMs(options.workflowRunTimeout, 'workflowRunTimeout');
  const workflowTaskTimeoutMs = optionalDurationToMs(options.workflowTaskTimeout, 'workflowTaskTimeout');
  return (...args) => {
    const activator = currentActivator('continueAsNew');
    const encoded = (args as unknown[]).map((arg) => activator.host.encode(arg));
    const command: ContinueAsNewCommand = {
      workflowType: options.workflowType ?? activator.info.workflowType,
      taskQueue: options.taskQueue ?? null,
      args: encoded,
      workflowRunTimeoutMs,
      workflowTaskTimeoutMs,
    };
    return Promise.reject(new ContinueAsNew(command));
  };
}

/**
 * Continues the run as new with the same workflow type and task queue and these arguments.
 * @example
 * if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof poller>({ cursor, done });
 */
export function continueAsNew<F extends (...args: never[]) => unknown>(...args: ArgsOf<F>): Promise<never> {
  return makeContinueAsNewFunc<F>()(...args);
}
