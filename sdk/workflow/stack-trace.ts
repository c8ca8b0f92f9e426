/**
 * Temporal's built-in `__stack_trace` query: what the run is waiting on, answered by the worker
 * from the run's pending operations without a handler in workflow code. Temporal answers with the
 * JavaScript stacks of the pending promises; a list of the operations themselves (activity type
 * and id, timer, condition, request to another workflow) tells the same story and replays
 * identically.
 * @module
 */
import type { Activator } from './activator.js';

/** The name of the built-in query. */
export const STACK_TRACE_QUERY = '__stack_trace';

/** One line per pending operation, in the order they were started within each kind. */
export function describePendingOperations(activator: Activator): string {
  const lines = [
    ...[...activator.activities].map(([seq, activity]) => `activity ${activity.activityType} (activityId ${seq})`),
    ...[...activator.timers.keys()].map((seq) => `timer ${seq} (sleep, setTimeout or a scope timeout)`),
    ...[...activator.conditions.keys()].map((seq) => `condition ${seq}`),
    ...[...activator.externals.keys()].map((seq) => `signal or cancellation request ${seq} to another workflow`),
  ];
  const { workflowType, workflowId } = activator.info;
  if (lines.length === 0) return `workflow ${workflowType} (workflowId ${workflowId}) waits on nothing`;
  return `workflow ${workflowType} (workflowId ${workflowId}) waits on:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}
