/**
 * Metrics read from the history events each shard transaction writes: what every worker did —
 * in-process, a worker process on Kafka, or a worker in another language on the HTTP task path —
 * as the engine recorded it, so no worker has to report anything itself. Durations are not among
 * them: history records a task's start with its outcome, at one time (workers measure durations,
 * see `EngineMetrics.recordWorkerReport`).
 * @module
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { HISTORY_LIMIT_WARNING_MARKER } from '../topics/schemas/history-event/engine-markers.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';

const ACTIVITY_OUTCOME = { ActivityTaskCompleted: 'completed', ActivityTaskFailed: 'failed', ActivityTaskCanceled: 'canceled', ActivityTaskTimedOut: 'timed_out' } as const;

const CLOSE_STATUS: Readonly<Record<string, string>> = {
  WorkflowExecutionCompleted: 'Completed',
  WorkflowExecutionFailed: 'Failed',
  WorkflowExecutionCanceled: 'Canceled',
  WorkflowExecutionTerminated: 'Terminated',
  WorkflowExecutionTimedOut: 'TimedOut',
  WorkflowExecutionContinuedAsNew: 'ContinuedAsNew',
};

/** The seed design's workflow and activity metrics (§19), counted from committed history events. */
export class HistoryMetrics {
  private readonly starts: Counter;
  private readonly completions: Counter;
  private readonly historySize: Histogram;
  private readonly historyWarnings: Counter;
  private readonly workflowTasks: Counter;
  private readonly workflowTaskFailures: Counter;
  private readonly workflowTaskTimeouts: Counter;
  private readonly activityCloses: Counter;
  private readonly compensationFailures: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.starts = new Counter({ name: 'logbook_workflow_starts_total', help: 'Workflow runs started', labelNames: ['namespace', 'workflow_type'], registers });
    this.completions = new Counter({ name: 'logbook_workflow_completions_total', help: 'Workflow runs closed, by status', labelNames: ['namespace', 'workflow_type', 'status'], registers });
    this.historySize = new Histogram({ name: 'logbook_history_size_events', help: 'Events in a run when it closed', labelNames: ['namespace', 'workflow_type'], buckets: [5, 10, 25, 50, 100, 250, 1000, 10_000, 51_200], registers });
    this.historyWarnings = new Counter({ name: 'logbook_history_size_warnings_total', help: 'Runs that passed the history warning size (they should continue as new)', labelNames: ['namespace', 'workflow_type'], registers });
    this.workflowTasks = new Counter({ name: 'logbook_workflow_tasks_recorded_total', help: 'Workflow tasks whose outcome history records (completed, or the first failed or timed-out attempt)', labelNames: ['namespace', 'task_queue'], registers });
    this.workflowTaskFailures = new Counter({ name: 'logbook_workflow_task_failures_total', help: 'Runs whose workflow task started failing, by cause (NonDeterministicError: a deployment broke replay); history records the first failed attempt of a run of failures', labelNames: ['namespace', 'task_queue', 'cause'], registers });
    this.workflowTaskTimeouts = new Counter({ name: 'logbook_workflow_task_timeouts_total', help: 'Workflow tasks that timed out (the first timed-out attempt of a run of them)', labelNames: ['namespace', 'task_queue'], registers });
    this.activityCloses = new Counter({ name: 'logbook_activities_closed_total', help: 'Activities closed, by outcome (retried attempts are not closes: see logbook_activity_retries_total)', labelNames: ['namespace', 'outcome'], registers });
    this.compensationFailures = new Counter({ name: 'logbook_compensation_failures_total', help: 'Runs whose saga compensation failed (tagged RequiresIntervention)', labelNames: ['namespace', 'workflow_type'], registers });
  }

  /**
   * Counts what one committed batch of events says. The label sets an alert watches with
   * `increase()` are created at 0 when first seen, so the first failure of each is an increase.
   */
  observe(events: readonly HistoryEvent[]): void {
    for (const event of events) {
      const { namespace } = event;
      const a = event.attributes;
      const run = { namespace, workflow_type: event.workflowType };
      const queue = { namespace, task_queue: event.taskQueue };
      switch (a.type) {
        case 'WorkflowExecutionStarted':
          this.starts.inc(run);
          this.compensationFailures.inc(run, 0);
          this.historyWarnings.inc(run, 0);
          this.workflowTaskFailures.inc({ ...queue, cause: 'NonDeterministicError' }, 0);
          this.workflowTaskTimeouts.inc(queue, 0);
          break;
        case 'WorkflowTaskCompleted':
          this.workflowTasks.inc(queue);
          break;
        case 'WorkflowTaskFailed':
          this.workflowTasks.inc(queue);
          this.workflowTaskFailures.inc({ ...queue, cause: a.cause });
          break;
        case 'WorkflowTaskTimedOut':
          this.workflowTasks.inc(queue);
          this.workflowTaskTimeouts.inc(queue);
          break;
        case 'ActivityTaskCompleted':
        case 'ActivityTaskFailed':
        case 'ActivityTaskCanceled':
        case 'ActivityTaskTimedOut':
          this.activityCloses.inc({ namespace, outcome: ACTIVITY_OUTCOME[a.type] });
          break;
        case 'MarkerRecorded':
          if (a.markerName === HISTORY_LIMIT_WARNING_MARKER) this.historyWarnings.inc(run);
          break;
        case 'UpsertWorkflowSearchAttributes':
          if (a.searchAttributes.RequiresIntervention?.value === true) this.compensationFailures.inc(run);
          break;
        default: {
          const status = CLOSE_STATUS[a.type];
          if (status) {
            this.completions.inc({ ...run, status });
            this.historySize.observe(run, event.eventId);
          }
        }
      }
    }
  }
}
