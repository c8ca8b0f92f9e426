import { TokenBuckets } from '../../topics/namespaces/token-bucket.js';

/** Where an activity worker's dispatch rates come from. */
export interface DispatchRateSources {
  /** This worker's own limit (Temporal's `maxActivitiesPerSecond`); undefined: none. */
  readonly perWorker?: number;
  /** The queue's rate across all its workers (the namespace's `taskQueueActivitiesPerSecond`), read live; null: none. */
  readonly perQueue: () => number | null;
  /** This worker's share of the queue: its activity-topic partitions over all of them. */
  readonly share: () => number;
  readonly clock?: () => number;
}

/**
 * Paces the activities a worker starts. Two token buckets (burst: one second's worth): the
 * worker's own rate, and its share of the queue's rate. Kafka hands each partition of the queue's
 * activity topic to one worker, so a worker holding k of n partitions gets k/n of the queue's
 * rate, and the workers together start at most the queue's rate (a rebalance resets the buckets).
 * Each start reserves a token in both and waits for the later of the two.
 */
export class ActivityDispatchRate {
  private readonly buckets = new TokenBuckets();
  private readonly clock: () => number;

  constructor(private readonly sources: DispatchRateSources) {
    if (sources.perWorker !== undefined && !(sources.perWorker > 0)) throw new TypeError(`maxActivitiesPerSecond must be a positive number, got ${sources.perWorker}`);
    this.clock = sources.clock ?? Date.now;
  }

  /** How long the next activity must wait before it starts (0: at once); the slot is taken. */
  reserve(): number {
    const now = this.clock();
    const queueRate = this.sources.perQueue();
    const share = this.sources.share();
    const mine = queueRate === null || share <= 0 ? null : queueRate * share;
    const worker = this.buckets.bucket('worker', this.sources.perWorker ?? null, now)?.reserve(now) ?? 0;
    const queue = this.buckets.bucket('queue', mine, now)?.reserve(now) ?? 0;
    return Math.max(worker, queue);
  }

  /** Waits for the next start slot; resolves early (false) when `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    const waitMs = this.reserve();
    if (waitMs === 0) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), waitMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(false);
      }, { once: true });
    });
  }
}
