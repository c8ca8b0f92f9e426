/**
 * Cron workflows (Temporal's `cronSchedule`): the first workflow task waits for the first cron
 * time after the start, and whenever a run closes — completed, failed or timed out once its retry
 * policy gives up, but not terminated or canceled — a new run of the same workflow id starts at
 * the next cron time after the close (`run-handover.ts`, initiator `CronSchedule`), attempt 1,
 * carrying the last completion result and the last failure. Each cron run gets its own execution
 * timeout, counted from its cron time (retries within it share it). Times are UTC.
 * @module
 */
import type { Payload } from '../../topics/payload/payload.js';
import type { StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Ctx } from './context.js';
import { CronExpressionError, nextCronTime, parseCronExpression } from '../../topics/cron/cron-expression.js';
import { handOverToNewRun } from './run-handover.js';

/** Why a start's cron schedule cannot be used, or null (also null without one). */
export function cronScheduleProblem(start: StartWorkflowExecutionRequest): string | null {
  if (!start.cronSchedule) return null;
  if (start.workflowStartDelayMs !== null && start.workflowStartDelayMs > 0) return 'cronSchedule and a start delay cannot be used together';
  return cronExpressionProblem(start.cronSchedule);
}

/** Why a cron expression cannot be parsed, or null (also null without one). */
export function cronExpressionProblem(cronSchedule: string | null): string | null {
  if (!cronSchedule) return null;
  try {
    parseCronExpression(cronSchedule);
    return null;
  } catch (error) {
    if (error instanceof CronExpressionError) return error.message;
    throw error;
  }
}

/** Wait from `now` to the schedule's next time (strictly after `now`). */
export function cronBackoffMs(cronSchedule: string, now: number): number {
  return nextCronTime(cronSchedule, now) - now;
}

/** The start as the engine runs it: a cron start's first workflow task waits for the first cron time. */
export function withCronBackoff(start: StartWorkflowExecutionRequest, now: number): StartWorkflowExecutionRequest {
  return start.cronSchedule ? { ...start, workflowStartDelayMs: cronBackoffMs(start.cronSchedule, now) } : start;
}

/** How a cron run ended: its result, or the failure that closed it. */
export interface CronRunEnd {
  result: Payload | null;
  failure: Failure | null;
  /** The WorkflowTaskCompleted whose command closed the run; 0 when a timeout closed it. */
  completedEventId: number;
}

/**
 * Hands the closing run over to the next cron run and returns true — or returns false (and does
 * nothing) when the run has no cron schedule. Buffered events must already be appended.
 */
export function startNextCronRun(ctx: Ctx, end: CronRunEnd): boolean {
  const cronSchedule = ctx.state.executionInfo.cronSchedule;
  if (!cronSchedule) return false;
  handOverToNewRun(ctx, {
    initiator: 'CronSchedule', failure: end.failure, result: end.result, backoffMs: cronBackoffMs(cronSchedule, ctx.now),
    attempt: 1, completedEventId: end.completedEventId,
  });
  return true;
}
