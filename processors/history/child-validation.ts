/**
 * Validation of `StartChildWorkflowExecution` before anything is written: what the child's shard
 * would refuse is caught here, so a start that leaves the parent's shard only fails when the
 * workflow id is taken — the one failure the parent's code is told about.
 * @module
 */
import type { WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import { limitsFor } from './config.js';
import type { Ctx } from './context.js';
import type { CommandProblem } from './command-validation.js';
import { cronExpressionProblem } from './cron-runs.js';
import { retryPolicyProblem } from './retry-policy.js';

/** Failure code of a completion that would pass the pending-children limit (Temporal's cause name). */
export const PENDING_CHILD_WORKFLOWS_LIMIT_EXCEEDED = 'PendingChildWorkflowsLimitExceeded';

const bad = (message: string): CommandProblem => ({ cause: 'BadStartChildExecutionAttributes', code: 'BadStartChildExecutionAttributes', message });
const negative = (...values: (number | null)[]): boolean => values.some((v) => v !== null && v < 0);

/** Why the child cannot be started as asked, or null; `pending` counts the run's pending children so far. */
export function startChildProblem(
  ctx: Ctx, pending: number, c: WorkflowCommandAttributesMap['StartChildWorkflowExecution'],
): CommandProblem | null {
  const name = `child workflow '${c.workflowId}' (${c.workflowType})`;
  if (!c.workflowId || !c.workflowType) return bad(`${name}: workflowId and workflowType are required`);
  if (c.taskQueue === '') return bad(`${name}: taskQueue must not be empty (null = the parent's)`);
  if (negative(c.workflowExecutionTimeoutMs, c.workflowRunTimeoutMs, c.workflowTaskTimeoutMs)) return bad(`${name}: timeouts must not be negative`);
  const cron = cronExpressionProblem(c.cronSchedule);
  if (cron) return bad(`${name}: cronSchedule: ${cron}`);
  const policy = retryPolicyProblem(c.retryPolicy);
  if (policy) return bad(`${name}: invalid retry policy: ${policy}`);
  const limit = limitsFor(ctx.config, ctx.state.executionInfo.namespace).maxPendingChildWorkflows;
  if (pending >= limit) {
    // Temporal's cause PendingChildWorkflowsLimitExceeded is not in the v1 enum: the failure code names it.
    return {
      cause: 'BadStartChildExecutionAttributes', code: PENDING_CHILD_WORKFLOWS_LIMIT_EXCEEDED,
      message: `${name}: the run already has ${limit} pending child workflows, the limit; wait for some to finish`,
    };
  }
  return null;
}
