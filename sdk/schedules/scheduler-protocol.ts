/**
 * The contract between the scheduler workflow and the engine side: its workflow type, id and task
 * queue, the signals and query it handles, the activities it calls, and what its describe query
 * answers. Types and constants only, so both the workflow bundle and the gateway import it.
 * @module
 */
import type { OverlapPolicy, ScheduleAction, ScheduleDefinition } from './schedule-definition.js';

export { SCHEDULER_TASK_QUEUE } from '../../topics/validation/internal-task-queues.js';

/** The workflow type of every scheduler run. */
export const SCHEDULER_WORKFLOW_TYPE = 'logbookScheduler';
/** Prefix of a scheduler's workflow id: `logbook-schedule/<scheduleId>`. */
export const SCHEDULER_WORKFLOW_ID_PREFIX = 'logbook-schedule/';

/** The scheduler workflow's id for a schedule. */
export function schedulerWorkflowId(scheduleId: string): string {
  return `${SCHEDULER_WORKFLOW_ID_PREFIX}${scheduleId}`;
}

/** Signal and query names of the scheduler workflow. */
export const SchedulerSignal = {
  pause: 'logbook.schedule.pause',
  unpause: 'logbook.schedule.unpause',
  trigger: 'logbook.schedule.trigger',
  backfill: 'logbook.schedule.backfill',
  update: 'logbook.schedule.update',
  delete: 'logbook.schedule.delete',
} as const;
/** The describe query's name. */
export const SCHEDULER_DESCRIBE_QUERY = 'logbook.schedule.describe';

/** A backfill request: act for every nominal time from `startAtMs` to `endAtMs`, both included. */
export interface BackfillRequest {
  readonly startAtMs: number;
  readonly endAtMs: number;
  /** Null: the schedule's overlap policy. */
  readonly overlap: OverlapPolicy | null;
}

/** One run a schedule started. */
export interface RunRef {
  readonly workflowId: string;
  readonly runId: string;
}

/** A start the scheduler asks the engine for (idempotent by `requestId`). */
export interface ScheduledStartRequest {
  readonly namespace: string;
  readonly scheduleId: string;
  readonly action: ScheduleAction;
  /** The nominal time: names the workflow id. */
  readonly nominalMs: number;
  readonly requestId: string;
}

/** A start's outcome: the run, or why the engine refused it (e.g. the workflow id is in use). */
export type ScheduledStartOutcome = ({ readonly started: true } & RunRef) | { readonly started: false; readonly workflowId: string; readonly reason: string };

/** The activities the scheduler workflow calls (implemented in `gateway/schedules/scheduler-activities.ts`). */
export interface SchedulerActivities {
  startScheduledWorkflow(request: ScheduledStartRequest): Promise<ScheduledStartOutcome>;
  /** The runs among `runs` that are still open. */
  openScheduledRuns(namespace: string, runs: readonly RunRef[]): Promise<RunRef[]>;
  /** Resolves once one of `runs` has closed, or after `maxWaitMs` if none did. */
  awaitScheduledRunClose(namespace: string, runs: readonly RunRef[], maxWaitMs: number): Promise<void>;
  /** Requests cancellation of (or terminates) each run; runs already closed are ignored. */
  endScheduledRuns(namespace: string, runs: readonly RunRef[], how: 'cancel' | 'terminate', reason: string): Promise<void>;
}

/** The workflow id of a scheduled run: `<action workflowId>-<nominal time, RFC 3339>`. */
export function scheduledWorkflowId(action: ScheduleAction, nominalMs: number): string {
  return `${action.workflowId}-${new Date(nominalMs).toISOString()}`;
}

/** One action taken. */
export interface ScheduleActionResult {
  /** Nominal time (RFC 3339). */
  readonly scheduleTime: string;
  /** When it was taken (RFC 3339): nominal time + jitter, or later when it waited. */
  readonly actualTime: string;
  readonly workflowId: string;
  readonly runId: string;
}

/** What describe answers (Temporal's ScheduleDescription, times as RFC 3339). */
export interface ScheduleDescription {
  readonly scheduleId: string;
  readonly schedule: ScheduleDefinition;
  readonly info: {
    readonly numActions: number;
    readonly numActionsMissedCatchupWindow: number;
    readonly numActionsSkippedOverlap: number;
    /** Actions the engine refused to start (e.g. the workflow id already running, an invalid action, a deprecated namespace). */
    readonly numActionsFailedToStart: number;
    /** Why the last refused start was refused; null if none was. */
    readonly lastFailedStart: string | null;
    readonly runningWorkflows: readonly RunRef[];
    /** The last actions, newest last. */
    readonly recentActions: readonly ScheduleActionResult[];
    /** The next nominal action times (up to 5); empty while paused or when no actions remain. */
    readonly nextActionTimes: readonly string[];
    readonly bufferedStarts: number;
    readonly createdAt: string;
    readonly lastUpdatedAt: string | null;
  };
  /** True once the schedule was deleted (the scheduler run has ended). */
  readonly deleted: boolean;
}
