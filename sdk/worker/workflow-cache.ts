import type { WorkflowRun } from '../replay/workflow-run.js';

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
