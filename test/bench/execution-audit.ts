import type { ActivityExecution } from './workflows/activities.js';

/**
 * W4's proof that a kill -9 lost nothing and repeated nothing that had been recorded as done,
 * from two independent sources: each workflow's committed history (fetched from the gateway) and
 * the execution log the bench activity appended to in the engine process (workflows/activities.ts).
 *
 * For every workflow: its history exists, its event ids are 1..n, it closed with
 * WorkflowExecutionCompleted carrying the expected result, and each scheduled activity completed
 * exactly once. For every completed activity: each recorded execution either began before the
 * ActivityTaskCompleted event's time — an at-least-once re-run of an attempt whose completion had
 * not been recorded yet, which is legitimate and counted — or after it, which means an activity
 * already recorded as completed ran again: a defect, listed with its ids and times.
 *
 * Both clocks are the same host's (the event time is the shard processor's clock when it applied
 * the completion, just before the transaction that commits it; the execution time is the worker's
 * clock when the attempt began, in the same process), so the comparison needs no skew allowance. An
 * execution that begins between that event time and the commit is counted as "after": the check
 * errs towards reporting a defect, never towards hiding one.
 */

/** The parts of a history event (as the gateway's JSON view gives it) the audit reads. */
export interface AuditEvent {
  readonly eventId: number;
  readonly eventTime: number;
  readonly runId?: string;
  readonly attributes: { readonly type: string; readonly activityId?: string; readonly scheduledEventId?: number; readonly result?: unknown; readonly identity?: string };
}

/** One audited workflow: its id and its history (`null` when the engine does not know it). */
export interface AuditedWorkflow {
  readonly workflowId: string;
  readonly events: readonly AuditEvent[] | null;
}

/** An execution of an activity that began after its completion had been recorded. */
export interface RerunAfterCompletion {
  readonly workflowId: string;
  readonly activityId: string;
  readonly attempt: number;
  readonly startedAt: number;
  /** The process that ran it again. */
  readonly pid: number;
  readonly completedEventTime: number;
  /** The worker identity the recorded completion names (`pid@host`). */
  readonly completedBy: string;
  /** How long after the ActivityTaskCompleted event time the execution began. */
  readonly lateByMs: number;
  /** The executions before the completion (the one whose result was recorded among them). */
  readonly earlierExecutions: ReadonlyArray<{ readonly startedAt: number; readonly pid: number }>;
}

/** What the audit found. */
export interface ExecutionAudit {
  readonly workflows: number;
  /** Closed as completed with the expected result and a well-formed history. */
  readonly completedCorrectly: number;
  /** Workflows that are missing, not completed, completed with a wrong result, or with a broken history (first 50). */
  readonly problems: ReadonlyArray<{ readonly workflowId: string; readonly problem: string }>;
  readonly problemCount: number;
  /** Activities recorded as completed in the histories. */
  readonly completedActivities: number;
  /** Executions recorded in the execution log for those workflows. */
  readonly executions: number;
  /** Extra executions that began before the activity's completion was recorded (legitimate at-least-once). */
  readonly rerunsBeforeCompletion: number;
  /** Executions that began after the activity's completion was recorded (a defect). */
  readonly rerunsAfterCompletion: readonly RerunAfterCompletion[];
  /** Completed activities with no execution recorded before their completion (the log is not wired, or worse). */
  readonly completedWithoutExecution: number;
  /** Executions of activities the committed history never scheduled. */
  readonly executionsOfUnscheduledActivities: number;
}

const MAX_LISTED = 50;

/** Audits the workflows against the execution log; `expectedResult` is what each workflow must return. */
export function auditExecutions(workflows: readonly AuditedWorkflow[], executions: readonly ActivityExecution[], expectedResult: unknown): ExecutionAudit {
  const byActivity = new Map<string, ActivityExecution[]>();
  const ids = new Set(workflows.map((w) => w.workflowId));
  for (const e of executions) {
    if (!ids.has(e.workflowId)) continue;
    const key = `${e.workflowId}/${e.runId}/${e.activityId}`;
    byActivity.set(key, [...(byActivity.get(key) ?? []), e]);
  }
  const problems: Array<{ workflowId: string; problem: string }> = [];
  const rerunsAfterCompletion: RerunAfterCompletion[] = [];
  let completedCorrectly = 0;
  let completedActivities = 0;
  let rerunsBeforeCompletion = 0;
  let completedWithoutExecution = 0;
  let audited = 0;
  const seen = new Set<string>();

  for (const { workflowId, events } of workflows) {
    const problem = historyProblem(events, expectedResult);
    if (problem) problems.push({ workflowId, problem });
    else completedCorrectly++;
    for (const scheduled of events ?? []) {
      if (scheduled.attributes.type !== 'ActivityTaskScheduled') continue;
      const completion = events!.find((e) => e.attributes.type === 'ActivityTaskCompleted' && e.attributes.scheduledEventId === scheduled.eventId);
      const key = `${workflowId}/${scheduled.runId ?? ''}/${scheduled.attributes.activityId ?? ''}`;
      seen.add(key);
      if (!completion) continue;
      completedActivities++;
      const runs = byActivity.get(key) ?? [];
      audited += runs.length;
      const late = runs.filter((e) => e.startedAt > completion.eventTime);
      const before = runs.length - late.length;
      if (before === 0) completedWithoutExecution++;
      rerunsBeforeCompletion += Math.max(0, before - 1);
      const earlierExecutions = runs.filter((e) => e.startedAt <= completion.eventTime).map((e) => ({ startedAt: e.startedAt, pid: e.pid }));
      for (const e of late) {
        rerunsAfterCompletion.push({
          workflowId,
          activityId: e.activityId,
          attempt: e.attempt,
          startedAt: e.startedAt,
          pid: e.pid,
          completedEventTime: completion.eventTime,
          completedBy: completion.attributes.identity ?? '',
          lateByMs: e.startedAt - completion.eventTime,
          earlierExecutions,
        });
      }
    }
  }
  let executionsOfUnscheduledActivities = 0;
  for (const [key, runs] of byActivity) if (!seen.has(key)) executionsOfUnscheduledActivities += runs.length;
  return {
    workflows: workflows.length,
    completedCorrectly,
    problems: problems.slice(0, MAX_LISTED),
    problemCount: problems.length,
    completedActivities,
    executions: audited,
    rerunsBeforeCompletion,
    rerunsAfterCompletion,
    completedWithoutExecution,
    executionsOfUnscheduledActivities,
  };
}

/** What is wrong with one workflow's history, or undefined when it completed correctly. */
function historyProblem(events: readonly AuditEvent[] | null, expectedResult: unknown): string | undefined {
  if (!events || events.length === 0) return 'no such workflow (its start was lost)';
  const broken = events.findIndex((e, i) => e.eventId !== i + 1);
  if (broken >= 0) return `event ${broken + 1} has id ${events[broken]!.eventId}: the history is not 1..n`;
  const last = events.at(-1)!.attributes;
  if (last.type !== 'WorkflowExecutionCompleted') return `not completed: the last event is ${last.type}`;
  if (JSON.stringify(last.result) !== JSON.stringify(expectedResult)) return `completed with a wrong result: ${JSON.stringify(last.result)?.slice(0, 80)}`;
  for (const scheduled of events.filter((e) => e.attributes.type === 'ActivityTaskScheduled')) {
    const completions = events.filter((e) => e.attributes.type === 'ActivityTaskCompleted' && e.attributes.scheduledEventId === scheduled.eventId).length;
    if (completions !== 1) return `activity ${scheduled.attributes.activityId} completed ${completions} times`;
  }
  return undefined;
}
