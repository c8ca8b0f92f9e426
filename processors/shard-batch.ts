import type { TopicCatalog } from '../topics/catalog.js';
import { deadLetterRecord } from '../topics/dead-letter.js';
import { StoreCorruptedError } from '../topics/errors.js';
import type { Log, LogRecord, OutgoingRecord, TransactionalProducer } from '../topics/log/log.js';
import { recordSize } from '../topics/log/record-size.js';
import type { Command } from '../topics/schemas/command/index.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import type { Serde } from '../topics/serde/index.js';
import { shardPositionsCodec } from '../topics/serde/index.js';
import type { ShardStore } from '../state-stores/shard-store.js';
import { applyCommand, applyTimer, type HistoryConfig, type Transition } from './history/index.js';
import { BatchOutputs } from './batch-outputs.js';
import { routeInputs } from './input-router.js';
import { purgeRecords } from './run-purge.js';
import type { TimerEntry } from './store-layout.js';
import { TaskBuilder } from './task-builder.js';
import type { TaskTopics } from './task-topics.js';

/** Everything one batch needs. */
export interface BatchContext {
  readonly shard: number;
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly clock: () => number;
  readonly taskTopics: TaskTopics;
  readonly history?: HistoryConfig;
  readonly producer: TransactionalProducer;
  readonly store: ShardStore;
  readonly records: readonly LogRecord[];
  readonly timers: readonly TimerEntry[];
  readonly positions: Readonly<Record<string, number>>;
  readonly loadState: (key: string) => Promise<MutableStateSnapshot | null>;
}

/** What a committed batch changed, for the processor's cache and for metrics. */
export interface BatchResult {
  readonly states: Map<string, MutableStateSnapshot | null>;
  readonly positions: Record<string, number>;
  readonly inputs: number;
  readonly timersFired: number;
  /** Every event the batch wrote, in order. */
  readonly events: HistoryEvent[];
  /** How late each fired timer fired (ms after its fire time). */
  readonly timerLatenessMs: number[];
  readonly deadLetters: number;
  readonly transactionMs: number;
  /** Timer entries that fired without effect; the processor skips them until the state changes. */
  readonly idleTimers: TimerEntry[];
}

/**
 * Runs one batch: route and decode the inputs, apply each (and each due timer) to its workflow's
 * state through the pure state machine, encode and size-check every output, then commit the
 * outputs, the new snapshots and the next input positions in one transaction, and only then write
 * the local store. An input that cannot be applied, or whose outputs are too large, is
 * dead-lettered alone; the rest of the batch goes on.
 */
export async function runBatch(ctx: BatchContext): Promise<BatchResult> {
  const outputs = new BatchOutputs(ctx.catalog, ctx.shard, ctx.serde);
  const routed = await routeInputs(ctx.records, ctx.shard, ctx.catalog, ctx.serde);
  outputs.add(routed.forwards);
  outputs.add(routed.deadLetters);
  const work = new Map<string, MutableStateSnapshot | null>();
  const tasks = new TaskBuilder(ctx);
  const stateOf = async (key: string) => (work.has(key) ? work.get(key)! : ctx.loadState(key));
  let deadLetters = routed.deadLetters.length;
  const events: HistoryEvent[] = [];
  const timerLatenessMs: number[] = [];
  const idleTimers: TimerEntry[] = [];

  const keep = async (key: string, transition: Transition, source: LogRecord | null): Promise<boolean> => {
    const encoded: OutgoingRecord[] = [
      ...(await outputs.encodeEvents(transition.events)),
      ...(await outputs.encodeReplies(transition.replies)),
      ...(await outputs.encodeCommands(transition.commands)),
      ...(await outputs.encodeVisibility(transition.closedRun?.visibility ?? null)),
      ...(await outputs.encodeVisibility(transition.visibility)),
      ...(await tasks.encode(transition, key)),
      ...(transition.purgedRun ? await purgeRecords(ctx.store, ctx.catalog, ctx.shard, key) : []),
    ];
    const tooLarge = encoded.find((r) => recordSize(r) > ctx.log.maxRecordBytes);
    if (tooLarge) {
      if (source) {
        outputs.add([deadLetterRecord(ctx.catalog.deadLetter, source, 'OUTPUT_TOO_LARGE', `applying it would write a ${recordSize(tooLarge)}-byte record to ${tooLarge.topic}, over the limit of ${ctx.log.maxRecordBytes} bytes`)]);
        deadLetters++;
      }
      return false;
    }
    if (transition.changed) work.set(key, transition.state);
    tasks.remember(key, transition.events);
    events.push(...transition.events);
    outputs.add(encoded);
    return true;
  };

  for (const input of routed.inputs) {
    const current = await stateOf(input.key);
    const now = Math.max(ctx.clock(), current?.executionInfo.lastEventTime ?? 0);
    let transition: Transition;
    try {
      transition = applyCommand(current, input.command, now, ctx.history);
    } catch (error) {
      // A state-machine bug must cost one input, not the shard.
      outputs.add([deadLetterRecord(ctx.catalog.deadLetter, input.record, 'APPLY_FAILED', error instanceof Error ? error.message : String(error))]);
      deadLetters++;
      continue;
    }
    // Stale claims and results are the normal residue of retries and redeliveries: drop them quietly.
    // A refused signal from another workflow is answered to it (transition.commands), not dead-lettered.
    const answered = transition.commands.length > 0;
    if (transition.rejection && !input.command.replyTo && !answered && !transition.rejection.code.startsWith('Stale')) {
      outputs.add([deadLetterRecord(ctx.catalog.deadLetter, input.record, transition.rejection.code, transition.rejection.message)]);
      deadLetters++;
    }
    await keep(input.key, acknowledged(input.command, transition), input.record);
  }

  let timersFired = 0;
  for (const entry of ctx.timers) {
    const current = await stateOf(entry.workflowKey);
    if (!current) continue;
    const now = Math.max(ctx.clock(), current.executionInfo.lastEventTime);
    const transition = applyTimer(current, entry.timer, now, ctx.history);
    if (!transition.changed && transition.events.length === 0) {
      idleTimers.push(entry);
      continue;
    }
    if (await keep(entry.workflowKey, transition, null)) {
      timersFired++;
      timerLatenessMs.push(now - entry.timer.fireTime);
    }
  }

  // Only due timers that turned out to have nothing to do: no transaction for an empty batch.
  if (ctx.records.length === 0 && outputs.records.length === 0 && work.size === 0) {
    return { states: work, positions: { ...ctx.positions }, inputs: 0, timersFired: 0, events, timerLatenessMs, deadLetters, transactionMs: 0, idleTimers };
  }
  for (const [key, state] of work) if (state) await outputs.addSnapshot(key, state);
  const positions = { ...ctx.positions };
  for (const record of ctx.records) positions[record.topic] = Math.max(positions[record.topic] ?? 0, record.offset + 1);
  outputs.addPositions(
    await ctx.serde.encode(
      shardPositionsCodec,
      { positions: Object.entries(positions).map(([topic, offset]) => ({ topic, partition: ctx.shard, offset })) },
      ctx.catalog.state,
    ),
  );
  await tasks.ensureTopics();

  const started = Date.now();
  const tx = await ctx.producer.begin();
  await tx.send(outputs.records);
  await tx.commit();
  const transactionMs = Date.now() - started;
  try {
    await ctx.store.apply(outputs.changelog);
  } catch (error) {
    throw new StoreCorruptedError(`writing the store of shard ${ctx.shard} after a commit failed`, error);
  }
  return { states: work, positions, inputs: ctx.records.length, timersFired, events, timerLatenessMs, deadLetters, transactionMs, idleTimers };
}


/**
 * Commands whose caller waits only for "applied": the engine acknowledges them when they commit
 * (an activity claim is awaited only for a task that may be a redelivery, see ClaimConfirmer).
 */
const ACKNOWLEDGED = new Set(['SignalWorkflowExecution', 'RequestCancelWorkflowExecution', 'TerminateWorkflowExecution', 'ActivityTaskStarted']);

/** Adds the `Accepted` reply of an applied signal, cancel request, termination or claim that asked for one. */
function acknowledged(command: Command, transition: Transition): Transition {
  const replyTo = command.replyTo;
  if (!replyTo || transition.rejection || !ACKNOWLEDGED.has(command.body.type)) return transition;
  if (transition.replies.some((r) => r.requestId === replyTo.requestId)) return transition;
  const runId = transition.state?.executionInfo.runId ?? command.runId;
  return { ...transition, replies: [...transition.replies, { requestId: replyTo.requestId, kind: 'Accepted', runId, payload: null, failure: null, executionStatus: null }] };
}
