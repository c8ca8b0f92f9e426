import { MAX_REPORT_SAMPLES, type ActivitySample, type WorkerReport, type WorkflowTaskSample } from '../../topics/wire/worker-report.js';
import type { GatewayAccess } from '../common/gateway-access.js';

/** How often a worker process sends its samples. */
const REPORT_EVERY_MS = 5_000;

/**
 * Sends a worker's own measurements to a gateway every 5 s (see `topics/wire/worker-report.ts`).
 * Samples past the cap of a report are dropped (metrics are samples), as is a report no gateway takes.
 */
export class WorkerReporter {
  private workflowTasks: WorkflowTaskSample[] = [];
  private activities: ActivitySample[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The gateways tried in turn, with the worker's credentials (the route wants a signed-in caller). */
    private readonly gateways: GatewayAccess,
    private readonly worker: Pick<WorkerReport, 'identity' | 'namespace' | 'taskQueue'>,
  ) {}

  /** The hooks a worker calls per task and attempt. */
  readonly hooks = {
    onWorkflowTask: (sample: WorkflowTaskSample) => void (this.workflowTasks.length < MAX_REPORT_SAMPLES && this.workflowTasks.push({ cacheHit: sample.cacheHit, replayMs: sample.replayMs, result: sample.result })),
    onActivity: (sample: ActivitySample) => void (this.activities.length < MAX_REPORT_SAMPLES && this.activities.push({ ...sample, scheduleToStartMs: Math.max(0, sample.scheduleToStartMs) })),
  };

  start(): void {
    this.timer = setInterval(() => void this.flush(), REPORT_EVERY_MS);
    this.timer.unref();
  }

  /** Stops reporting after one last report. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.workflowTasks.length === 0 && this.activities.length === 0) return;
    const report: WorkerReport = { ...this.worker, workflowTasks: this.workflowTasks, activities: this.activities };
    this.workflowTasks = [];
    this.activities = [];
    const body = JSON.stringify(report);
    for (const endpoint of this.gateways.baseUrls) {
      const sent = await this.gateways.fetch(`${endpoint}/api/v1/worker-reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
      if (sent) return;
    }
  }
}
