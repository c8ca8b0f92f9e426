import { getHeapStatistics } from 'node:v8';
import type { WorkflowRun } from '../replay/workflow-run.js';

/** Heap a cached run is assumed to need: about twice what a short workflow's run measures (33 KiB). */
const ASSUMED_BYTES_PER_RUN = 64 * 1024;
/** Heap kept for everything but the cache (the worker, its clients, the tasks in flight). */
const RESERVED_HEAP_BYTES = 512 * 1024 * 1024;

/**
 * The default number of runs a worker caches: half of the heap above 512 MiB, at 64 KiB a run
 * (about 28,000 runs under Node's default 4 GiB heap limit, at least 100). A run that falls out
 * of the cache is replayed from its full history on its next task, so a cache smaller than the
 * runs waiting at once turns every timer that fires into a replay. Workflows that keep large
 * state in memory should set `maxCachedWorkflows` lower.
 * @param heapLimitBytes the heap limit (default: this process's, `--max-old-space-size` included)
 */
export function defaultCacheCapacity(heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  return Math.max(100, Math.floor(Math.max(0, heapLimitBytes - RESERVED_HEAP_BYTES) / 2 / ASSUMED_BYTES_PER_RUN));
}

/**
 * The sticky cache of a workflow worker: runs kept in memory (LRU), so that the next task of a run
 * replays only its new events. Evicted runs release their sandbox.
 */
export class WorkflowCache {
  private readonly runs = new Map<string, WorkflowRun>();

  constructor(private readonly capacity: number) {}

  get(runId: string): WorkflowRun | undefined {
    const run = this.runs.get(runId);
    if (run) {
      // Re-insert to mark as most recently used.
      this.runs.delete(runId);
      this.runs.set(runId, run);
    }
    return run;
  }

  set(runId: string, run: WorkflowRun): void {
    this.runs.set(runId, run);
    while (this.runs.size > this.capacity) {
      const [oldest, evicted] = this.runs.entries().next().value!;
      this.runs.delete(oldest);
      evicted.dispose();
    }
  }

  evict(runId: string): void {
    this.runs.get(runId)?.dispose();
    this.runs.delete(runId);
  }

  clear(): void {
    for (const run of this.runs.values()) run.dispose();
    this.runs.clear();
  }
}
