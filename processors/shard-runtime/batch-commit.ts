import { StoreCorruptedError } from '../../topics/errors.js';
import type { CommitReceipt, InputPositions, LogRecord, TransactionalProducer } from '../../topics/log/log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { shardPositionsCodec } from '../../topics/serde/index.js';
import type { ShardStore } from '../../state-stores/shard-store.js';
import { BatchWork, type BatchContext, type InputOutcome } from './batch-work.js';
import { handleInput } from './input-pipeline.js';
import { Keyspace, type TimerEntry } from './store-layout.js';
import type { SuspectInputs } from './suspect-inputs.js';
import { fireTimer } from './timer-firing.js';

/** What a committed batch changed, for the shard's cache and positions and for metrics. */
export interface BatchResult {
  readonly states: ReadonlyMap<string, MutableStateSnapshot | null>;
  readonly positions: Record<string, number>;
  readonly inputs: number;
  readonly timersFired: number;
  /** Every event the batch wrote, in order. */
  readonly events: readonly HistoryEvent[];
  /** How late each fired timer fired (ms after its fire time). */
  readonly timerLatenessMs: readonly number[];
  readonly deadLetters: number;
  readonly transactionMs: number;
  /** Timer entries that fired without effect; the shard skips them until the state changes. */
  readonly idleTimers: readonly TimerEntry[];
  /** Timer-index keys the commit added to the store (the sooner deadlines it may have brought). */
  readonly timerKeysAdded: readonly string[];
  /** What became of each input record. */
  readonly outcomes: readonly InputOutcome[];
}

/**
 * One batch as a commit object, after Kafka Streams' commit cycle: {@link prepare} (decode,
 * validate, apply, encode, size-check every input, each isolated; nothing is written), then
 * {@link commit} (the transaction: outputs, snapshots and the next input positions, all or
 * nothing), then {@link postCommit} (the local store, with the checkpoint of the changelog
 * offsets it now reflects, so a takeover restores only the tail).
 */
export class BatchCommit {
  private transactionMs = 0;
  private timerKeysAdded: readonly string[] = [];

  private constructor(
    private readonly work: BatchWork,
    private readonly records: readonly LogRecord[],
    private readonly positions: Record<string, number>,
  ) {}

  /** Prepares the inputs and due timers of a batch; throws only for a failure that is not an input's (retriable). */
  static async prepare(
    ctx: BatchContext,
    batch: { records: readonly LogRecord[]; timers: readonly TimerEntry[]; positions: InputPositions; suspects: SuspectInputs },
  ): Promise<BatchCommit> {
    const work = new BatchWork(ctx);
    for (const record of batch.records) await handleInput(work, record, batch.suspects.quarantined(record));
    for (const entry of batch.timers) await fireTimer(work, entry);
    const positions: Record<string, number> = { ...batch.positions };
    for (const record of batch.records) positions[record.topic] = Math.max(positions[record.topic] ?? 0, record.offset + 1);
    const prepared = new BatchCommit(work, batch.records, positions);
    if (!prepared.empty) await prepared.addSnapshotsAndPositions();
    return prepared;
  }

  /** True when there is nothing to commit: only due timers, all without effect. */
  get empty(): boolean {
    return this.records.length === 0 && this.work.outputs.records.length === 0 && this.work.states.size === 0;
  }

  /** The records of the transaction, in order (tests inspect them). */
  get outputRecords() {
    return this.work.outputs.records;
  }

  /**
   * Writes everything in one transaction; `committing` is called as the commit is issued, the
   * moment from which its replies may be seen. Its errors are the shard's remedy to decide
   * (corrupted, or fenced).
   */
  async commit(producer: TransactionalProducer, committing: () => void = () => undefined): Promise<CommitReceipt> {
    const started = Date.now();
    const tx = await producer.begin();
    await tx.send(this.work.outputs.records);
    committing();
    const receipt = await tx.commit();
    this.transactionMs = Date.now() - started;
    return receipt;
  }

  /**
   * Applies the committed changelog records to the local store in one atomic write, with the
   * checkpoint of what the transaction wrote to this shard's changelog partitions.
   * @throws StoreCorruptedError: the store no longer matches the log and must be restored
   */
  async postCommit(store: ShardStore, receipt: CommitReceipt): Promise<void> {
    const { shard } = this.work.ctx;
    const checkpoints = new Map(receipt.written.filter((w) => w.partition === shard).map((w) => [w.topic, w.nextOffset]));
    try {
      const added = await store.apply(this.work.outputs.changelog, checkpoints);
      this.timerKeysAdded = added.get(Keyspace.timers) ?? [];
    } catch (error) {
      throw new StoreCorruptedError(`writing the store of shard ${shard} after a commit failed`, error);
    }
  }

  /** The batch's figures, once committed (or for an empty batch). */
  result(): BatchResult {
    const w = this.work;
    return {
      states: w.states,
      positions: this.positions,
      inputs: this.records.length,
      timersFired: w.timersFired,
      events: w.events,
      timerLatenessMs: w.timerLatenessMs,
      deadLetters: w.deadLetters,
      transactionMs: this.transactionMs,
      idleTimers: w.idleTimers,
      timerKeysAdded: this.timerKeysAdded,
      outcomes: w.outcomes,
    };
  }

  private async addSnapshotsAndPositions(): Promise<void> {
    const { outputs, ctx } = this.work;
    outputs.addSnapshots([...this.work.snapshots].map(([key, record]) => ({ record, state: this.work.states.get(key) ?? undefined })));
    const positions = Object.entries(this.positions).map(([topic, offset]) => ({ topic, partition: ctx.shard, offset }));
    outputs.addPositions(await ctx.serde.encode(shardPositionsCodec, { positions }, ctx.catalog.state));
  }
}
