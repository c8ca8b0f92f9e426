/**
 * Metrics read from the history events each shard transaction writes: what every worker did —
 * in-process, a worker process on Kafka, or a worker in another language on the HTTP task path —
 * as the engine recorded it, so no worker has to report anything itself.
 * @module
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { HISTORY_LIMIT_WARNING_MARKER } from '../topics/schemas/history-event/engine-markers.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';

/** Seconds, from a millisecond to a few minutes. */
const TASK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

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
  private readonly workflowTaskLatency: Histogram;
  private readonly workflowTaskFailures: Counter;
  private readonly workflowTaskTimeouts: Counter;
  private readonly activityAttempts: Counter;
  private readonly activityLatency: Histogram;
  private readonly activityTimeouts: Counter;
  private readonly compensationFailures: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.starts = new Counter({ name: 'logbook_workflow_starts_total', help: 'Workflow runs started', labelNames: ['namespace', 'workflow_type'], registers });
    this.completions = new Counter({ name: 'logbook_workflow_completions_total', help: 'Workflow runs closed, by status', labelNames: ['namespace', 'workflow_type', 'status'], registers });
    this.historySize = new Histogram({ name: 'logbook_history_size_events', help: 'Events in a run when it closed', labelNames: ['namespace', 'workflow_type'], buckets: [5, 10, 25, 50, 100, 250, 1000, 10_000, 51_200], registers });
    this.historyWarnings = new Counter({ name: 'logbook_history_size_warnings_total', help: 'Runs that passed the history warning size (they should continue as new)', labelNames: ['namespace', 'workflow_type'], registers });
    this.workflowTasks = new Counter({ name: 'logbook_workflow_tasks_started_total', help: 'Workflow task attempts a worker claimed', labelNames: ['namespace', 'task_queue'], registers });
    this.workflowTaskLatency = new Histogram({ name: 'logbook_workflow_task_latency_seconds', help: 'From a workflow task claimed to its completion or failure recorded, any worker', labelNames: ['namespace', 'task_queue'], buckets: TASK_BUCKETS, registers });
    this.workflowTaskFailures = new Counter({ name: 'logbook_workflow_task_failures_total', help: 'Workflow tasks a worker failed, by cause (NonDeterministicError: a deployment broke replay)', labelNames: ['namespace', 'task_queue', 'cause'], registers });
    this.workflowTaskTimeouts = new Counter({ name: 'logbook_workflow_task_timeouts_total', help: 'Workflow tasks not completed in time', labelNames: ['namespace', 'task_queue'], registers });
    this.activityAttempts = new Counter({ name: 'logbook_activity_attempts_total', help: 'Activity attempts started, first attempts and retries', labelNames: ['namespace', 'retry'], registers });
    this.activityLatency = new Histogram({ name: 'logbook_activity_task_latency_seconds', help: 'From an activity attempt claimed to its outcome recorded, any worker', labelNames: ['namespace', 'outcome'], buckets: TASK_BUCKETS, registers });
    this.activityTimeouts = new Counter({ name: 'logbook_activity_timeouts_total', help: 'Activities that timed out with no retry left', labelNames: ['namespace'], registers });
    this.compensationFailures = new Counter({ name: 'logbook_compensation_failures_total', help: 'Runs whose saga compensation failed (tagged RequiresIntervention)', labelNames: ['namespace', 'workflow_type'], registers });
  }

  /** Counts what one committed batch of events says. */
  observe(events: readonly HistoryEvent[]): void {
    const started = new Map<string, HistoryEvent>();
    for (const event of events) {
      const { namespace } = event;
      const a = event.attributes;
      const run = { namespace, workflow_type: event.workflowType };
      const queue = { namespace, task_queue: event.taskQueue };
      // A start and its outcome are usually written together; elsewhere only counts are kept.
      const startedOf = (startedEventId: number | null) => (startedEventId === null ? undefined : started.get(`${event.runId}:${startedEventId}`));
      switch (a.type) {
        case 'WorkflowExecutionStarted':
          this.starts.inc(run);
          break;
        case 'WorkflowTaskStarted':
          started.set(`${event.runId}:${event.eventId}`, event);
          this.workflowTasks.inc(queue);
          break;
        case 'WorkflowTaskCompleted':
        case 'WorkflowTaskFailed': {
          const claim = startedOf(a.startedEventId);
          if (claim) this.workflowTaskLatency.observe(queue, Math.max(0, event.eventTime - claim.eventTime) / 1000);
          if (a.type === 'WorkflowTaskFailed') this.workflowTaskFailures.inc({ ...queue, cause: a.cause });
          break;
        }
        case 'WorkflowTaskTimedOut':
          this.workflowTaskTimeouts.inc(queue);
          break;
        case 'ActivityTaskStarted':
          started.set(`${event.runId}:${event.eventId}`, event);
          this.activityAttempts.inc({ namespace, retry: a.attempt > 1 ? 'true' : 'false' });
          break;
        case 'ActivityTaskCompleted':
        case 'ActivityTaskFailed':
        case 'ActivityTaskCanceled': {
          const claim = startedOf(a.startedEventId);
          const outcome = a.type === 'ActivityTaskCompleted' ? 'completed' : a.type === 'ActivityTaskFailed' ? 'failed' : 'canceled';
          if (claim) this.activityLatency.observe({ namespace, outcome }, Math.max(0, event.eventTime - claim.eventTime) / 1000);
          break;
        }
        case 'ActivityTaskTimedOut':
          this.activityTimeouts.inc({ namespace });
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
