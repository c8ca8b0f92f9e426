import { consumerLag } from '../../topics/log/consumer-lag.js';
import type { GroupConsumer, Log, LogRecord } from '../../topics/log/log.js';
import { OffsetTracker } from './offset-tracker.js';
import { TaskHandedBackError } from './task-handed-back-error.js';

const COMMIT_INTERVAL_MS = 200;

/** How a task topic is consumed. */
export interface TaskConsumerOptions {
  readonly log: Log;
  readonly topic: string;
  readonly groupId: string;
  readonly identity: string;
  /** Tasks running at once on this worker, across partitions. */
  readonly maxConcurrent: number;
  /** Run a partition's tasks one after another (workflow tasks: one workflow's tasks in order). */
  readonly ordered: boolean;
  /**
   * Runs one task and answers it. `signal` aborts when the partition is taken away or the worker
   * stops. Resolving finishes the task (its position may be committed past it). Throwing
   * {@link TaskHandedBackError} leaves it unfinished: the engine has not heard of it, and it comes
   * back to the partition's next owner. Any other error is for a record no worker can answer (it
   * does not decode): it is reported to `onError` and skipped.
   */
  readonly handle: (record: LogRecord, signal: AbortSignal, delivery: TaskDelivery) => Promise<void>;
  readonly onError?: (error: unknown, record: LogRecord) => void;
  /** Records behind on each owned partition, sampled every LAG_SAMPLE_MS. */
  readonly onLag?: (topic: string, partition: number, lag: number) => void;
}

const LAG_SAMPLE_MS = 5_000;
/** How often a consumer without a lag observer commits its idle partitions past their end markers. */
const IDLE_COMMIT_MS = 20_000;

/** What the consumer knows of a task's delivery. */
export interface TaskDelivery {
  /**
   * The task was already in the partition when this worker was given it, so a previous owner may
   * have run it and reported its result without committing its position (positions are committed
   * every COMMIT_INTERVAL_MS). Tasks written after the assignment are first deliveries.
   */
  readonly mayBeRedelivered: boolean;
}

/**
 * Consumes one task topic as a member of the queue's worker group. Each assigned partition resumes
 * from the group's committed position; tasks run with bounded concurrency; the committed position
 * only ever moves to the lowest unfinished task, so a crashed worker's tasks come back to another
 * member after the group's session timeout. A task is finished only once its handler answered it:
 * one handed back (see {@link TaskConsumerOptions.handle}) is never committed past. Claims and
 * answers are the handler's business.
 */
export class TaskConsumer {
  private consumer: GroupConsumer | undefined;
  private readonly trackers = new Map<number, OffsetTracker>();
  private readonly loops = new Map<number, { abort: AbortController; done: Promise<void> }>();
  private running = 0;
  private readonly slotFreed: Array<() => void> = [];
  private readonly active = new Set<Promise<void>>();
  private stopping = false;
  private readonly commitTimers = new Map<number, NodeJS.Timeout>();
  private readonly startPositions = new Map<number, number>();
  /** Per partition: the end offset when it was assigned; tasks before it may be redeliveries. */
  private readonly endsAtAssignment = new Map<number, number>();
  private lagTimer: NodeJS.Timeout | undefined;
  private sampling = false;

  constructor(private readonly options: TaskConsumerOptions) {}

  async start(): Promise<void> {
    const { log, topic, groupId, identity } = this.options;
    const consumer = log.groupConsumer({ groupId, topics: [topic], endpoint: identity, sessionTimeoutMs: 10_000 });
    this.consumer = consumer;
    await consumer.start({
      onRevoked: (partitions) => partitions.forEach((p) => this.stopPartition(p)),
      onAssigned: (partitions) => partitions.forEach((p) => void this.startPartition(p)),
    });
    // Also without a lag observer: idle partitions are committed past their end markers, so the
    // group's lag reads 0 to every tool; less often, since nobody waits for the figure.
    this.lagTimer = setInterval(() => void this.sampleLag(), this.options.onLag ? LAG_SAMPLE_MS : IDLE_COMMIT_MS).unref();
  }

  /** How many partitions of the topic this member holds now. */
  assignedPartitions(): number {
    return this.consumer?.assignment().length ?? 0;
  }

  /**
   * Reports each owned partition's true lag (records not yet consumed, transaction markers not
   * counted). A partition with nothing left to run has its position committed past the markers at
   * its end, so the group's committed lag is 0 there too, in `kafka-consumer-groups` as in the metric.
   */
  private async sampleLag(): Promise<void> {
    // One sample at a time: while a broker is slow to answer, samples must not pile up.
    if (this.sampling) return;
    this.sampling = true;
    try {
      await this.sampleEachPartition();
    } finally {
      this.sampling = false;
    }
  }

  private async sampleEachPartition(): Promise<void> {
    const { log, topic, onLag } = this.options;
    for (const [partition, tracker] of this.trackers) {
      // Without an observer only idle partitions are looked at: all there is to do is to commit past their end markers.
      if (!onLag && tracker.size > 0) continue;
      const position = tracker.committable() ?? this.startPositions.get(partition);
      if (position === undefined) continue;
      const lag = await consumerLag(log, topic, partition, position).catch(() => undefined);
      if (!lag) continue;
      onLag?.(topic, partition, lag.records);
      if (lag.records === 0 && lag.endOffset > position && tracker.size === 0) {
        tracker.skipTo(lag.endOffset);
        await this.commit(partition);
      }
    }
  }

  /**
   * Graceful shutdown: stop taking tasks, let running ones finish (up to `graceMs`), commit what
   * finished, leave the group. Unfinished tasks are handed back through the uncommitted position.
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    clearInterval(this.lagTimer);
    for (const p of [...this.loops.keys()]) this.stopPartition(p, false);
    await Promise.race([Promise.all([...this.active]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const timer of this.commitTimers.values()) clearTimeout(timer);
    this.commitTimers.clear();
    for (const [p] of this.trackers) await this.commit(p);
    await this.consumer?.stop();
  }

  /**
   * Opens an assigned partition. Reading its positions can fail (a broker blip); the partition is
   * then retried while it stays assigned, instead of being left idle or the rejection escaping.
   */
  private async startPartition(partition: number): Promise<void> {
    for (let pause = 100; ; pause = Math.min(pause * 2, 5_000)) {
      try {
        return await this.openPartition(partition);
      } catch {
        if (this.stopping || !this.consumer?.assignment().includes(partition)) return;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  }

  private async openPartition(partition: number): Promise<void> {
    const consumer = this.consumer!;
    const positions = await consumer.committedPositions(partition);
    const end = await this.options.log.endOffset(this.options.topic, partition);
    if (!consumer.assignment().includes(partition) || this.stopping) return;
    this.endsAtAssignment.set(partition, end);
    consumer.seek(partition, positions);
    this.startPositions.set(partition, positions[this.options.topic] ?? 0);
    const tracker = new OffsetTracker();
    this.trackers.set(partition, tracker);
    const abort = new AbortController();
    this.loops.set(partition, { abort, done: this.poll(partition, tracker, abort.signal) });
  }

  private stopPartition(partition: number, dropTracker = true): void {
    this.loops.get(partition)?.abort.abort();
    this.loops.delete(partition);
    if (dropTracker) this.trackers.delete(partition);
  }

  private async poll(partition: number, tracker: OffsetTracker, signal: AbortSignal): Promise<void> {
    // Ordered mode keeps one chain per record key (one workflow's tasks run in order) while
    // different keys of the same partition run side by side.
    const chains = new Map<string, Promise<void>>();
    while (!signal.aborted) {
      // Bound what is taken but not finished, so a slow handler throttles fetching.
      while (tracker.size >= this.options.maxConcurrent * 2 && !signal.aborted) await new Promise((r) => setTimeout(r, 5));
      const records = await this.consumer!.take(partition, { maxRecords: 50, maxBytes: 8 << 20, waitMs: 500, signal });
      // A partition taken away (or a consumer stopped under us) answers at once: stop, do not spin.
      if (records.length === 0 && !this.consumer!.assignment().includes(partition)) return;
      for (const record of records) {
        if (signal.aborted) return;
        if (tracker.isRunning(record.offset)) continue;
        tracker.begin(record.offset);
        if (!this.options.ordered) {
          await this.acquireSlot();
          void this.run(record, tracker, partition, signal);
          continue;
        }
        const key = record.key?.toString('utf8') ?? '';
        const next = (chains.get(key) ?? Promise.resolve()).then(async () => {
          // Stopping: a task not begun is handed back (its offset stays uncommitted).
          if (signal.aborted) return;
          await this.acquireSlot();
          await this.run(record, tracker, partition, signal);
        });
        chains.set(key, next);
        void next.finally(() => chains.get(key) === next && chains.delete(key));
      }
    }
  }

  private async run(record: LogRecord, tracker: OffsetTracker, partition: number, signal: AbortSignal): Promise<void> {
    const work = (async () => {
      let finished = true;
      try {
        await this.options.handle(record, signal, { mayBeRedelivered: record.offset < (this.endsAtAssignment.get(partition) ?? 0) });
      } catch (error) {
        // Unanswered: the offset stays in flight, so no commit moves past it; the next owner reads it again.
        if (error instanceof TaskHandedBackError) finished = false;
        else this.options.onError?.(error, record);
      } finally {
        if (finished) tracker.end(record.offset);
        this.releaseSlot();
        if (finished) this.scheduleCommit(partition);
      }
    })();
    this.active.add(work);
    await work.finally(() => this.active.delete(work));
  }

  /** Commits at most every COMMIT_INTERVAL_MS per partition: a commit per task would cost a round trip each. */
  private scheduleCommit(partition: number): void {
    if (this.commitTimers.has(partition)) return;
    this.commitTimers.set(
      partition,
      setTimeout(() => {
        this.commitTimers.delete(partition);
        void this.commit(partition);
      }, COMMIT_INTERVAL_MS),
    );
  }

  private async commit(partition: number): Promise<void> {
    const next = this.trackers.get(partition)?.committable();
    if (next === undefined || !this.consumer?.assignment().includes(partition)) return;
    await this.consumer.commitPositions(partition, { [this.options.topic]: next }).catch(() => undefined);
  }

  private async acquireSlot(): Promise<void> {
    while (this.running >= this.options.maxConcurrent) await new Promise<void>((r) => this.slotFreed.push(r));
    this.running++;
  }

  private releaseSlot(): void {
    this.running--;
    this.slotFreed.shift()?.();
  }
}
