/**
 * What a worker process reports to a gateway (`POST /api/v1/worker-reports`) so the engine's
 * /metrics has what only the worker can measure — replay time, cache hits, activity run time —
 * for workers outside the engine's process too. Best effort: a lost report loses samples, nothing else.
 * @module
 */

/** One workflow task the worker ran. */
export interface WorkflowTaskSample {
  readonly cacheHit: boolean;
  readonly replayMs: number;
  readonly result: string;
}

/** One activity attempt the worker ran. */
export interface ActivitySample {
  readonly activityType: string;
  readonly attempt: number;
  readonly durationMs: number;
  readonly scheduleToStartMs: number;
  readonly outcome: string;
}

/** A report: the samples since the last one. */
export interface WorkerReport {
  readonly identity: string;
  readonly namespace: string;
  readonly taskQueue: string;
  readonly workflowTasks: readonly WorkflowTaskSample[];
  readonly activities: readonly ActivitySample[];
}

/** The most samples of each kind one report may carry (a worker sends more often when busy). */
export const MAX_REPORT_SAMPLES = 2_000;
