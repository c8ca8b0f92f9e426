/**
 * The deadlines a run can have armed. The processor keeps them in its timer index (derived from
 * every snapshot by `timersOf`) and hands a due one back to `applyTimer`.
 * @module
 */

/** Every kind of deadline, as a const object. */
export const TimerKind = {
  /** A workflow's `StartTimer`. */
  UserTimer: 'UserTimer',
  /** An activity attempt's retry backoff ended: send the next attempt. */
  ActivityRetry: 'ActivityRetry',
  /** An activity attempt waited too long in its queue. */
  ScheduleToStart: 'ScheduleToStart',
  /** A claimed activity attempt ran too long. */
  StartToClose: 'StartToClose',
  /** An activity ran too long, retries included. */
  ScheduleToClose: 'ScheduleToClose',
  /** A claimed activity attempt stopped heartbeating. */
  Heartbeat: 'Heartbeat',
  /** No worker claimed or answered an unclaimed activity asked to cancel within its grace: cancel it. */
  UnclaimedActivityCancel: 'UnclaimedActivityCancel',
  /** A claimed workflow task ran too long. */
  WorkflowTaskTimeout: 'WorkflowTaskTimeout',
  /** A dispatched workflow task waited too long unclaimed: send it again as the next attempt. */
  WorkflowTaskScheduleToStart: 'WorkflowTaskScheduleToStart',
  /** A workflow-task retry backoff ended: send the next attempt. */
  WorkflowTaskRetry: 'WorkflowTaskRetry',
  /** The start delay of a run ended: schedule its first workflow task. */
  WorkflowStartDelay: 'WorkflowStartDelay',
  /** The run timeout. */
  RunTimeout: 'RunTimeout',
  /** The execution timeout (across runs of a chain; one run for now). */
  ExecutionTimeout: 'ExecutionTimeout',
  /** A closed run's retention ended: delete its state, visibility rows and history. */
  Retention: 'Retention',
} as const;

/** @see TimerKind */
export type TimerKind = (typeof TimerKind)[keyof typeof TimerKind];

/**
 * One armed deadline. `identity` names what it belongs to (run id, then the scheduled event id and
 * attempt, or the timer's started event id), so a ref that no longer matches the state is stale.
 *
 * @example
 * { kind: 'StartToClose', fireTime: 1700000030000, identity: '<runId>:activity:5:2' }
 */
export interface TimerRef {
  kind: TimerKind;
  /** Epoch ms; the timer never fires before it. */
  fireTime: number;
  identity: string;
}
