import type { GroupConsumer, Log } from '../../topics/log/log.js';
import { OffsetTracker } from '../../sdk/worker/offset-tracker.js';

const COMMIT_INTERVAL_MS = 200;
const TAKE_WAIT_MS = 500;

/** A task handed to (or waiting for) an HTTP poller, with the record it came from. */
export interface Handout<T> {
  readonly task: T;
  readonly partition: number;
  readonly offset: number;
  /** The tracker of the partition's assignment the record was read in (a later one is another generation). */
  readonly tracker: OffsetTracker;
}

/** How one task topic is bridged. */
export interface TaskBridgeOptions<T> {
  readonly log: Log;
  readonly topic: string;
  /** The queue's worker group: the same one the Kafka workers join, so both share the work. */
  readonly groupId: string;
  readonly identity: string;
  readonly decode: (value: Buffer) => Promise<T>;
  readonly onError?: (error: unknown) => void;
}

/**
 * Bridges one task topic to HTTP long polls. The gateway joins the queue's worker group like any
 * worker; its partitions are read only while a poller waits (so tasks are not pulled in that no one
 * will run), and each record goes to one poller. A handed-out task stays unfinished until its
 * result arrives or its lease expires; the group position moves only up to the lowest unfinished
 * task, so a gateway that dies hands its tasks back to the group, as a crashed worker does.
 */
export class TaskBridge<T> {
  private consumer: GroupConsumer | undefined;
  private readonly trackers = new Map<number, OffsetTracker>();
  private readonly loops = new Map<number, AbortController>();
  private readonly waiters: Array<(handout: Handout<T> | undefined) => void> = [];
  /** Records read for a poller that had gone by the time they arrived: served to the next poller first. */
  private ready: Array<Handout<T>> = [];
  private readonly leases = new Map<string, { timer: NodeJS.Timeout; handout: Handout<T> }>();
  private demand: Array<() => void> = [];
  private readonly commitTimers = new Map<number, NodeJS.Timeout>();
  private stopped = false;
  /** Last time a poller or a result touched this bridge (idle bridges leave the group). */
  lastUsed = Date.now();

  constructor(private readonly options: TaskBridgeOptions<T>) {}

  async start(): Promise<void> {
    const { log, topic, groupId, identity } = this.options;
    const consumer = log.groupConsumer({ groupId, topics: [topic], endpoint: identity, sessionTimeoutMs: 10_000 });
    this.consumer = consumer;
    await consumer.start({
      onRevoked: (partitions) => partitions.forEach((p) => this.stopPartition(p)),
      onAssigned: (partitions) => partitions.forEach((p) => void this.startPartition(p)),
      onStopped: () => void (this.stopped = true),
    });
  }

  /** False once the bridge stopped or its consumer died: the registry then builds a new one. */
  get alive(): boolean {
    return !this.stopped;
  }

  /** True when nothing waits here and nothing handed out is unfinished. */
  get quiet(): boolean {
    return this.waiters.length === 0 && this.leases.size === 0;
  }

  /** Waits up to `waitMs` for a task; undefined on timeout or when `signal` aborts (the poller left). */
  poll(waitMs: number, signal: AbortSignal): Promise<Handout<T> | undefined> {
    this.lastUsed = Date.now();
    if (this.stopped) return Promise.resolve(undefined);
    const ready = this.ready.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const give = (handout: Handout<T> | undefined) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', leave);
        resolve(handout);
      };
      const leave = () => {
        const at = this.waiters.indexOf(give);
        if (at >= 0) this.waiters.splice(at, 1);
        give(undefined);
      };
      const timer = setTimeout(leave, waitMs);
      signal.addEventListener('abort', leave, { once: true });
      this.waiters.push(give);
      this.wakeLoops();
    });
  }

  /** The poller has the task: it is unfinished until `finish`, or until the lease runs out. */
  lease(handout: Handout<T>, leaseMs: number): void {
    const key = `${handout.partition}:${handout.offset}`;
    // On expiry the engine's own timeout (armed by the claim) retries the task with a new record.
    const timer = setTimeout(() => this.release(key), leaseMs);
    timer.unref();
    this.leases.set(key, { timer, handout });
  }

  /** A task read but not delivered (its poller left before the claim): offer it again, first. */
  giveBack(handout: Handout<T>): void {
    if (this.trackers.get(handout.partition) !== handout.tracker) return; // revoked: the next owner re-reads it
    this.offer(handout, true);
  }

  /**
   * A task read but not to be run: the engine refused its claim (another claim holds the attempt,
   * or the attempt has ended). Its record is finished, as its holder answers it.
   */
  skip(handout: Handout<T>): void {
    handout.tracker.end(handout.offset);
    if (this.trackers.get(handout.partition) === handout.tracker) this.scheduleCommit(handout.partition);
  }

  /** The task's result arrived: release its record. False when this bridge did not hand it out. */
  finish(partition: number, offset: number): boolean {
    this.lastUsed = Date.now();
    return this.release(`${partition}:${offset}`);
  }

  /** Leaves the group after committing what finished; unfinished tasks go back to the group. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const give of this.waiters.splice(0)) give(undefined);
    for (const p of [...this.loops.keys()]) this.stopPartition(p, false);
    for (const timer of this.commitTimers.values()) clearTimeout(timer);
    for (const { timer } of this.leases.values()) clearTimeout(timer);
    for (const p of this.trackers.keys()) await this.commit(p);
    await this.consumer?.stop().catch(() => undefined);
  }

  private release(key: string): boolean {
    const lease = this.leases.get(key);
    if (!lease) return false;
    clearTimeout(lease.timer);
    this.leases.delete(key);
    lease.handout.tracker.end(lease.handout.offset);
    this.scheduleCommit(lease.handout.partition);
    return true;
  }

  private async startPartition(partition: number): Promise<void> {
    const consumer = this.consumer!;
    const positions = await consumer.committedPositions(partition).catch(() => undefined);
    if (!positions || !consumer.assignment().includes(partition) || this.stopped) return;
    consumer.seek(partition, positions);
    const tracker = new OffsetTracker();
    this.trackers.set(partition, tracker);
    const abort = new AbortController();
    this.loops.set(partition, abort);
    void this.read(partition, tracker, abort.signal);
  }

  private stopPartition(partition: number, dropTracker = true): void {
    this.loops.get(partition)?.abort();
    this.loops.delete(partition);
    if (!dropTracker) return;
    // The new owner re-reads from the committed position; results of handed-out tasks still count.
    this.trackers.delete(partition);
    this.ready = this.ready.filter((h) => h.partition !== partition);
    for (const [key, lease] of this.leases) {
      if (lease.handout.partition !== partition) continue;
      clearTimeout(lease.timer);
      this.leases.delete(key);
    }
  }

  /** Reads a partition while pollers wait, one record at a time so no poller's task sits behind another's. */
  private async read(partition: number, tracker: OffsetTracker, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.waiters.length === 0) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal.removeEventListener('abort', wake);
            resolve();
          };
          this.demand.push(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
        continue;
      }
      try {
        const records = await this.consumer!.take(partition, { maxRecords: 1, maxBytes: 8 << 20, waitMs: TAKE_WAIT_MS, signal });
        for (const record of records) {
          if (signal.aborted || tracker.isRunning(record.offset)) continue;
          tracker.begin(record.offset);
          const task = record.value ? await this.decode(record.value) : undefined;
          if (task === undefined) {
            // A tombstone or a record no worker could run: skip it, as the Kafka workers do.
            tracker.end(record.offset);
            this.scheduleCommit(partition);
            continue;
          }
          this.offer({ task, partition, offset: record.offset, tracker });
        }
      } catch (error) {
        if (signal.aborted || this.stopped) return;
        this.options.onError?.(error);
        await new Promise((r) => setTimeout(r, TAKE_WAIT_MS));
      }
    }
  }

  private async decode(value: Buffer): Promise<T | undefined> {
    try {
      return await this.options.decode(value);
    } catch (error) {
      this.options.onError?.(error);
      return undefined;
    }
  }

  private offer(handout: Handout<T>, first = false): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(handout);
    else if (first) this.ready.unshift(handout);
    else this.ready.push(handout);
  }

  private wakeLoops(): void {
    const waiting = this.demand;
    this.demand = [];
    waiting.forEach((wake) => wake());
  }

  /** Commits at most every COMMIT_INTERVAL_MS per partition: a commit per task would cost a round trip each. */
  private scheduleCommit(partition: number): void {
    if (this.commitTimers.has(partition) || this.stopped) return;
    const timer = setTimeout(() => {
      this.commitTimers.delete(partition);
      void this.commit(partition);
    }, COMMIT_INTERVAL_MS);
    timer.unref();
    this.commitTimers.set(partition, timer);
  }

  private async commit(partition: number): Promise<void> {
    const next = this.trackers.get(partition)?.committable();
    if (next === undefined || !this.consumer?.assignment().includes(partition)) return;
    await this.consumer.commitPositions(partition, { [this.options.topic]: next }).catch(() => undefined);
  }
}
