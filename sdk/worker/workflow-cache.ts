import { getHeapStatistics } from 'node:v8';
import type { WorkflowRun } from '../replay/workflow-run.js';

/** Heap a cached run is assumed to need: about twice what a short workflow's run measures (33 KiB). */
const ASSUMED_BYTES_PER_RUN = 64 * 1024;
/** The fewest runs a default cache holds (the fixed default of earlier versions). */
const MIN_DEFAULT_CAPACITY = 1_000;
/** Heap use, as a share of the heap limit, past which the cache gives runs up whatever its count. */
const HIGH_WATER = 0.75;
/** Share of the cached runs given up at once under memory pressure (their memory is freed by a later GC). */
const PRESSURE_EVICTION_SHARE = 0.1;
/** How often, at most, the cache looks at the heap: evicted runs need a GC before the heap shows it. */
const PRESSURE_CHECK_INTERVAL_MS = 1_000;

/**
 * The default number of runs a worker caches: half of the heap limit at 64 KiB a run, at least
 * 1,000 (about 32,000 runs under a 4 GiB heap). A run that falls out of the cache replays its full
 * history on its next task, so a cache smaller than the runs waiting at once turns every timer that
 * fires into a replay. Runs that hold more memory than assumed are covered by the cache's memory
 * check (see {@link WorkflowCache}).
 * @param heapLimitBytes the heap limit (default: this process's, `--max-old-space-size` included)
 */
export function defaultCacheCapacity(heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  return Math.max(MIN_DEFAULT_CAPACITY, Math.floor(heapLimitBytes / 2 / ASSUMED_BYTES_PER_RUN));
}

/** What the cache reads of the heap (this process's by default; tests give their own). */
export interface HeapGauge {
  usedBytes(): number;
  readonly limitBytes: number;
}

const processHeap: HeapGauge = {
  usedBytes: () => getHeapStatistics().used_heap_size,
  limitBytes: getHeapStatistics().heap_size_limit,
};

/** A cached run and the data subject its outgoing payloads inherit (see `WorkerPayloads`). */
interface CachedRun {
  readonly run: WorkflowRun;
  readonly subject: string | undefined;
}

/**
 * The sticky cache of a workflow worker: runs kept in memory (LRU), so that the next task of a run
 * replays only its new events. Evicted runs release their sandbox. Besides its count, the cache
 * watches the heap: past three quarters of the heap limit it gives up its least recently used
 * tenth (at most once a second), so runs larger than the count assumed cannot exhaust the heap.
 *
 * Each run is cached with the data subject of its start input. The subject must live exactly as
 * long as the run: a sticky task carries no WorkflowExecutionStarted event to read it from again,
 * and a subject forgotten while its run stays cached would put the run's new payloads under the
 * default subject's key, out of reach of `eraseSubject`.
 */
export class WorkflowCache {
  private readonly runs = new Map<string, CachedRun>();
  private lastPressureCheck = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly capacity: number,
    private readonly heap: HeapGauge = processHeap,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(runId: string): WorkflowRun | undefined {
    const entry = this.runs.get(runId);
    if (entry) {
      // Re-insert to mark as most recently used.
      this.runs.delete(runId);
      this.runs.set(runId, entry);
    }
    return entry?.run;
  }

  /** The data subject the cached run was stored with; undefined for a run not cached or with no subject. */
  subjectOf(runId: string): string | undefined {
    return this.runs.get(runId)?.subject;
  }

  /** Caches `run` with the subject of its start input (undefined when it names none). */
  set(runId: string, run: WorkflowRun, subject?: string): void {
    this.runs.set(runId, { run, subject });
    while (this.runs.size > this.capacity) this.evictOldest();
    this.relieveMemoryPressure();
  }

  evict(runId: string): void {
    this.runs.get(runId)?.run.dispose();
    this.runs.delete(runId);
  }

  clear(): void {
    for (const { run } of this.runs.values()) run.dispose();
    this.runs.clear();
  }

  /** Runs cached now. */
  get size(): number {
    return this.runs.size;
  }

  private relieveMemoryPressure(): void {
    const now = this.now();
    if (now - this.lastPressureCheck < PRESSURE_CHECK_INTERVAL_MS) return;
    this.lastPressureCheck = now;
    if (this.heap.usedBytes() < this.heap.limitBytes * HIGH_WATER) return;
    const count = Math.max(1, Math.ceil(this.runs.size * PRESSURE_EVICTION_SHARE));
    for (let i = 0; i < count && this.runs.size > 1; i++) this.evictOldest();
  }

  private evictOldest(): void {
    const [oldest, evicted] = this.runs.entries().next().value!;
    this.runs.delete(oldest);
    evicted.run.dispose();
  }
}
