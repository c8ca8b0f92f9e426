/**
 * The rules of `name-rules.ts` and `value-rules.ts` applied to the records of the command topic:
 * a start request, a workflow command, a whole command. Field names are the records' own
 * (`workflowExecutionTimeoutMs`), so a message says which field of which record is wrong. The
 * clients check every command before sending it, the gateway before writing it, and the history
 * state machine checks what it reads (starts and workflow commands) with the same functions.
 * @module
 */
import type { Command, StartWorkflowExecutionRequest, WorkflowCommand } from '../schemas/command/index.js';
import { ParentClosePolicy, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../schemas/common/v1-enums.js';
import type { RetryPolicy, SearchAttributes } from '../schemas/common/v1-records.js';
import { firstProblem } from './invalid-argument-error.js';
import { identifierProblem, namespaceProblem, optionalIdentifierProblem, taskQueueProblem } from './name-rules.js';
import { datetimeProblem, durationProblem, MAX_AVRO_INT, oneOfProblem, optionalDurationProblem, wholeNumberProblem } from './value-rules.js';

const CONFLICT_POLICIES = Object.keys(WorkflowIdConflictPolicy);
const REUSE_POLICIES = Object.keys(WorkflowIdReusePolicy);
const PARENT_CLOSE_POLICIES = Object.keys(ParentClosePolicy);

/** The optional task queue of a workflow command: null or empty means the run's own. */
const sameOrTaskQueue = (value: string | null, field: string): string | null => (value ? taskQueueProblem(value, field) : null);

/** Why a retry policy's numbers are out of range, or null (the engine checks how they relate). */
export function retryPolicyBoundsProblem(policy: RetryPolicy | null, field = 'retryPolicy'): string | null {
  if (policy === null) return null;
  return firstProblem(
    () => durationProblem(policy.initialIntervalMs, `${field}.initialIntervalMs`),
    () => optionalDurationProblem(policy.maximumIntervalMs, `${field}.maximumIntervalMs`),
    () => (Number.isFinite(policy.backoffCoefficient) ? null : `${field}.backoffCoefficient must be a finite number, got ${String(policy.backoffCoefficient)}`),
    () => wholeNumberProblem(policy.maximumAttempts, `${field}.maximumAttempts`, 0, MAX_AVRO_INT),
  );
}

/** Why search attributes cannot be indexed as given (a name that is no identifier, a time no Date holds), or null. */
export function searchAttributesProblem(attributes: SearchAttributes | null): string | null {
  for (const [name, attribute] of Object.entries(attributes ?? {})) {
    const problem = identifierProblem(name, 'search attribute name') ?? (attribute.type === 'Datetime' ? datetimeProblem(attribute.value, `search attribute '${name}'`) : null);
    if (problem) return problem;
  }
  return null;
}

/** Why a start of `workflowId` in `namespace` cannot be accepted as sent, or null. */
export function startRequestProblem(namespace: unknown, workflowId: unknown, start: StartWorkflowExecutionRequest): string | null {
  return firstProblem(
    () => namespaceProblem(namespace),
    () => identifierProblem(workflowId, 'workflowId'),
    () => identifierProblem(start.runId, 'runId'),
    () => identifierProblem(start.workflowType, 'workflowType'),
    () => taskQueueProblem(start.taskQueue),
    () => oneOfProblem(start.workflowIdConflictPolicy, 'workflowIdConflictPolicy', CONFLICT_POLICIES),
    () => oneOfProblem(start.workflowIdReusePolicy, 'workflowIdReusePolicy', REUSE_POLICIES),
    () => optionalDurationProblem(start.workflowExecutionTimeoutMs, 'workflowExecutionTimeoutMs'),
    () => optionalDurationProblem(start.workflowRunTimeoutMs, 'workflowRunTimeoutMs'),
    () => optionalDurationProblem(start.workflowTaskTimeoutMs, 'workflowTaskTimeoutMs'),
    () => optionalDurationProblem(start.workflowStartDelayMs, 'workflowStartDelayMs'),
    () => retryPolicyBoundsProblem(start.retryPolicy),
    () => searchAttributesProblem(start.searchAttributes),
  );
}

type Rules = { [K in WorkflowCommand['type']]?: (c: Extract<WorkflowCommand, { type: K }>) => string | null };

const workflowCommandRules: Rules = {
  ScheduleActivityTask: (c) => firstProblem(
    () => identifierProblem(c.activityId, 'activityId'),
    () => identifierProblem(c.activityType, 'activityType'),
    () => sameOrTaskQueue(c.taskQueue, 'taskQueue'),
    () => optionalDurationProblem(c.scheduleToCloseTimeoutMs, 'scheduleToCloseTimeoutMs'),
    () => optionalDurationProblem(c.scheduleToStartTimeoutMs, 'scheduleToStartTimeoutMs'),
    () => optionalDurationProblem(c.startToCloseTimeoutMs, 'startToCloseTimeoutMs'),
    () => optionalDurationProblem(c.heartbeatTimeoutMs, 'heartbeatTimeoutMs'),
    () => retryPolicyBoundsProblem(c.retryPolicy),
  ),
  StartTimer: (c) => firstProblem(
    () => identifierProblem(c.timerId, 'timerId'),
    () => durationProblem(c.startToFireTimeoutMs, 'startToFireTimeoutMs'),
  ),
  ContinueAsNewWorkflowExecution: (c) => firstProblem(
    () => identifierProblem(c.workflowType, 'workflowType'),
    () => sameOrTaskQueue(c.taskQueue, 'taskQueue'),
    () => optionalDurationProblem(c.workflowRunTimeoutMs, 'workflowRunTimeoutMs'),
    () => optionalDurationProblem(c.workflowTaskTimeoutMs, 'workflowTaskTimeoutMs'),
    () => optionalDurationProblem(c.backoffStartIntervalMs, 'backoffStartIntervalMs'),
    () => retryPolicyBoundsProblem(c.retryPolicy),
    () => searchAttributesProblem(c.searchAttributes),
  ),
  StartChildWorkflowExecution: (c) => firstProblem(
    () => (c.namespace === null ? null : namespaceProblem(c.namespace)),
    () => identifierProblem(c.workflowId, 'workflowId'),
    () => identifierProblem(c.workflowType, 'workflowType'),
    () => (c.taskQueue === null ? null : taskQueueProblem(c.taskQueue)),
    () => optionalDurationProblem(c.workflowExecutionTimeoutMs, 'workflowExecutionTimeoutMs'),
    () => optionalDurationProblem(c.workflowRunTimeoutMs, 'workflowRunTimeoutMs'),
    () => optionalDurationProblem(c.workflowTaskTimeoutMs, 'workflowTaskTimeoutMs'),
    () => oneOfProblem(c.workflowIdReusePolicy, 'workflowIdReusePolicy', REUSE_POLICIES),
    () => oneOfProblem(c.parentClosePolicy, 'parentClosePolicy', PARENT_CLOSE_POLICIES),
    () => retryPolicyBoundsProblem(c.retryPolicy),
    () => searchAttributesProblem(c.searchAttributes),
  ),
  UpsertWorkflowSearchAttributes: (c) => searchAttributesProblem(c.searchAttributes),
  SignalExternalWorkflowExecution: (c) => firstProblem(
    () => (c.namespace === null ? null : namespaceProblem(c.namespace)),
    () => identifierProblem(c.workflowId, 'workflowId'),
    () => optionalIdentifierProblem(c.runId, 'runId'),
    () => identifierProblem(c.signalName, 'signalName'),
  ),
  RequestCancelExternalWorkflowExecution: (c) => firstProblem(
    () => (c.namespace === null ? null : namespaceProblem(c.namespace)),
    () => identifierProblem(c.workflowId, 'workflowId'),
    () => optionalIdentifierProblem(c.runId, 'runId'),
  ),
};

/** Why a workflow command (of a workflow-task completion) breaks a rule, or null; the message names the command. */
export function workflowCommandProblem(command: WorkflowCommand): string | null {
  const rule = workflowCommandRules[command.type] as ((c: WorkflowCommand) => string | null) | undefined;
  const problem = rule ? rule(command) : null;
  return problem === null ? null : `${command.type}: ${problem}`;
}

type BodyRules = { [K in Command['body']['type']]?: (body: Extract<Command['body'], { type: K }>, command: Command) => string | null };

const bodyRules: BodyRules = {
  StartWorkflowExecution: (body, command) => startRequestProblem(command.namespace, command.workflowId, body),
  SignalWithStartWorkflowExecution: (body, command) => firstProblem(
    () => startRequestProblem(command.namespace, command.workflowId, body.start),
    () => identifierProblem(body.signalName, 'signalName'),
  ),
  SignalWorkflowExecution: (body) => identifierProblem(body.signalName, 'signalName'),
  UpdateWorkflowExecution: (body) => firstProblem(
    () => identifierProblem(body.request.updateId, 'updateId'),
    // An empty name waits for an update the run already knows (by its id).
    () => (body.request.name === '' ? null : identifierProblem(body.request.name, 'update name')),
  ),
  ResetWorkflowExecution: (body) => firstProblem(
    () => identifierProblem(body.baseRunId, 'baseRunId'),
    () => wholeNumberProblem(body.workflowTaskEventId, 'workflowTaskEventId', 1, Number.MAX_SAFE_INTEGER),
  ),
  WorkflowTaskCompleted: (body) => firstProblem(...body.commands.map((c) => () => workflowCommandProblem(c))),
};

/** Why a command may not be written to the command topic, or null: its target, request id and body. */
export function commandProblem(command: Command): string | null {
  const rule = bodyRules[command.body.type] as ((body: Command['body'], command: Command) => string | null) | undefined;
  return firstProblem(
    () => namespaceProblem(command.namespace),
    () => identifierProblem(command.workflowId, 'workflowId'),
    () => identifierProblem(command.requestId, 'requestId'),
    () => optionalIdentifierProblem(command.runId, 'runId'),
    () => (rule ? rule(command.body, command) : null),
  );
}
