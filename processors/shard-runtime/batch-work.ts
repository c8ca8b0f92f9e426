import type { TopicCatalog } from '../../topics/catalog.js';
import { boundedDeadLetter, type DeadLetterCause } from '../../topics/dead-letter.js';
import type { Log, LogRecord, OutgoingRecord } from '../../topics/log/log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { Serde } from '../../topics/serde/index.js';
import type { TaskTopics } from '../../topics/task-topics.js';
import type { ShardStore } from '../../state-stores/shard-store.js';
import type { HistoryConfig } from '../history/index.js';
import { BatchOutputs } from './batch-outputs.js';
import type { InputStep } from './input-steps.js';
import type { TimerEntry } from './store-layout.js';
import { TaskBuilder } from './task-builder.js';
import type { TransitionRecords } from './transition-records.js';

/** What a batch needs from its shard. */
export interface BatchContext {
  readonly shard: number;
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly clock: () => number;
  readonly taskTopics: TaskTopics;
  readonly history?: HistoryConfig;
  readonly store: ShardStore;
  readonly loadState: (key: string) => Promise<MutableStateSnapshot | null>;
}

/** What became of one input record. */
export type InputFate = 'applied' | 'rejected' | 'forwarded' | 'dead-lettered' | 'quarantined';

/** One input's outcome, by its source position (for metrics, and for tests that account for every record). */
export interface InputOutcome {
  readonly topic: string;
  readonly offset: number;
  readonly fate: InputFate;
  /** The step that failed, for dead letters. */
  readonly step?: InputStep;
  readonly code?: string;
}

/**
 * What one batch accumulates while its inputs are prepared: the records of its transaction, the
 * workflow states they leave, the events written and the fate of every input. Only inputs whose
 * every step succeeded are kept; a failed one leaves nothing behind but its dead letter and reply.
 */
export class BatchWork {
  readonly outputs: BatchOutputs;
  readonly tasks: TaskBuilder;
  /** States as this batch leaves them (null = deleted), by workflow key. */
  readonly states = new Map<string, MutableStateSnapshot | null>();
  readonly events: HistoryEvent[] = [];
  readonly outcomes: InputOutcome[] = [];
  readonly timerLatenessMs: number[] = [];
  /** Timer entries that fired without effect (or failed): skipped until the workflow's state changes. */
  readonly idleTimers: TimerEntry[] = [];
  timersFired = 0;
  deadLetters = 0;

  constructor(readonly ctx: BatchContext) {
    this.outputs = new BatchOutputs(ctx.catalog, ctx.shard, ctx.serde);
    this.tasks = new TaskBuilder({ ...ctx, maxRecordBytes: ctx.log.maxRecordBytes });
  }

  /** The workflow's state as the batch has left it so far. */
  async stateOf(key: string): Promise<MutableStateSnapshot | null> {
    return this.states.has(key) ? this.states.get(key)! : this.ctx.loadState(key);
  }

  /** Snapshot records of the states this batch leaves, by workflow key (the last input's wins). */
  readonly snapshots = new Map<string, OutgoingRecord>();

  /** Keeps a transition whose records were all prepared. */
  keep(key: string, state: MutableStateSnapshot | null, changed: boolean, events: readonly HistoryEvent[], prepared: TransitionRecords): void {
    const { records, snapshot } = prepared;
    if (changed) this.states.set(key, state);
    if (snapshot) this.snapshots.set(key, snapshot);
    else if (changed) this.snapshots.delete(key);
    this.tasks.remember(key, events);
    this.events.push(...events);
    this.outputs.add(records);
  }

  /** Adds records that are not part of any transition (forwards, replies to failed inputs). */
  add(records: readonly OutgoingRecord[]): void {
    this.outputs.add(records);
  }

  /** Dead-letters an input with its cause (bounded: a dead letter always fits in a record). */
  deadLetter(source: LogRecord, cause: DeadLetterCause): void {
    this.outputs.add([boundedDeadLetter(this.ctx.catalog.deadLetter, source, cause)]);
    this.deadLetters++;
  }

  /** Encodes and adds an answer to a caller whose input failed. */
  async reply(reply: Reply): Promise<void> {
    this.outputs.add(await this.outputs.encodeReplies([reply]));
  }

  /** Records an input's fate. */
  note(record: LogRecord, fate: InputFate, failure?: { step: InputStep; code: string }): void {
    this.outcomes.push({ topic: record.topic, offset: record.offset, fate, ...(failure ?? {}) });
  }
}
