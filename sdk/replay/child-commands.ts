/**
 * Host side of child workflows: the sandbox's `startChild` options as the
 * `StartChildWorkflowExecution` command the engine records.
 * @module
 */
import type { Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { StartChildOptions } from '../workflow/bridge.js';
import { copyIntoRealm } from '../workflow/realm-copy.js';

/** The `StartChildWorkflowExecution` command of a `startChild` call (values already encoded in the sandbox). */
export function startChildCommand(o: StartChildOptions): WorkflowCommand {
  const memo: Record<string, Payload> = {};
  for (const [key, value] of Object.entries(o.memo)) memo[key] = value as Payload;
  return {
    type: 'StartChildWorkflowExecution', namespace: null, workflowId: String(o.workflowId), workflowType: String(o.workflowType),
    taskQueue: o.taskQueue === null ? null : String(o.taskQueue), input: Array.from(o.args) as Payload[],
    workflowExecutionTimeoutMs: o.workflowExecutionTimeoutMs, workflowRunTimeoutMs: o.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: o.workflowTaskTimeoutMs, parentClosePolicy: o.parentClosePolicy, workflowIdReusePolicy: 'AllowDuplicate',
    retryPolicy: o.retryPolicy === null ? null : copyIntoRealm(o.retryPolicy), cronSchedule: o.cronSchedule === null ? null : String(o.cronSchedule), header: {}, memo,
    searchAttributes: copyIntoRealm(o.searchAttributes),
  };
}
