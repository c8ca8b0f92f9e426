/**
 * The per-workflow workflow-task rate limit (`maxWorkflowTasksPerSecond`, per namespace): a hot
 * workflow (a signal storm, a tight timer loop) cannot take all of its shard's time. Tasks are
 * counted in fixed one-second windows kept in the snapshot; a task over the limit is not sent but
 * waits, like a transient attempt waits for its backoff (`workflowTaskDispatched = false` until its
 * `scheduledTime`, the start of the next window), and is counted when it is sent.
 * @module
 */
import { limitsFor } from './config.js';
import type { Ctx } from './context.js';

/** Length of one counting window. */
export const WORKFLOW_TASK_WINDOW_MS = 1000;

/**
 * Counts the pending workflow task against the current window and returns true if it may be sent
 * now; otherwise defers it to the next window (the `WorkflowTaskRetry` deadline sends it then).
 */
export function admitWorkflowTask(ctx: Ctx): boolean {
  const state = ctx.state;
  const task = state.pendingWorkflowTask;
  if (!task) return true;
  const limit = limitsFor(ctx.config, state.executionInfo.namespace).maxWorkflowTasksPerSecond;
  if (ctx.now >= state.workflowTaskWindowStartTime + WORKFLOW_TASK_WINDOW_MS) {
    state.workflowTaskWindowStartTime = ctx.now;
    state.workflowTaskWindowCount = 0;
  }
  if (state.workflowTaskWindowCount < limit) {
    state.workflowTaskWindowCount++;
    return true;
  }
  task.scheduledTime = state.workflowTaskWindowStartTime + WORKFLOW_TASK_WINDOW_MS;
  state.workflowTaskDispatched = false;
  return false;
}
