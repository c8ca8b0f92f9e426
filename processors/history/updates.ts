/**
 * Workflow updates (Temporal's update protocol). A client's UpdateWorkflowExecution is admitted
 * into the registry (`update-registry.ts`) — nothing is written — and delivered to the workflow
 * as a message of the next workflow task. The worker answers with protocol messages:
 *
 * - UpdateRejection (the validator refused): no event; the callers get `UpdateRejected` with the
 *   validator's failure as cause;
 * - UpdateAcceptance: `WorkflowExecutionUpdateAccepted`; callers waiting for stage Accepted are
 *   answered (`Accepted`);
 * - UpdateResponse (the handler returned or threw): `WorkflowExecutionUpdateCompleted`; every
 *   caller gets an `UpdateResult` reply in the same transaction.
 *
 * An update admitted while no workflow task is in flight gets a SPECULATIVE task: attempt 1 with
 * nothing written (like a transient attempt). If the worker rejects every update and issues no
 * other command, its completion writes nothing at all (see {@link completesQuietly}).
 * @module
 */
import type { CommandBodyOf, WorkflowCommand, WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { Tagged } from '../../topics/schemas/avro-schema.js';
import type { Failure, ReplyTo } from '../../topics/schemas/common/v1-records.js';
import type { MutableStateSnapshot, PendingUpdateInfo, PendingWorkflowTaskInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';
import { identifierProblem } from '../../topics/validation/index.js';
import { limitsFor } from './config.js';
import { appendEvent, engineFailure, reject, type Ctx } from './context.js';
import { flushBuffered } from './delivery.js';
import { RejectionCode } from './transition.js';
import {
  acceptedUpdateCount,
  admittedUpdates,
  completedEventIdOf,
  completedRecord,
  forgetOldOutcomes,
  entriesOf,
  inFlightUpdates,
  isCompletedRecord,
  outcomeOf,
  type UpdateOutcome,
} from './update-registry.js';
import { awaitingStartDelay, dispatchWorkflowTask, scheduleWorkflowTask, workflowTaskInFlight } from './workflow-task-schedule.js';
import { refuseOversizedInput } from './payload-limits.js';
import { refusePlaintextInput } from './codec-required.js';

/** Failure code of the reply to an update the workflow's validator rejected. */
export const UPDATE_REJECTED = 'UpdateRejected';
/** Rejection code of a poll (an update request without a name) for an update id the run does not know. */
export const UPDATE_NOT_FOUND = 'UpdateNotFound';
/**
 * Failure code of the answer to a repeated update id whose outcome the state no longer keeps: the
 * failure's details (JSON) name the WorkflowExecutionUpdateCompleted event to read it from; the
 * gateway does so before answering.
 */
export const UPDATE_OUTCOME_IN_HISTORY = 'UpdateOutcomeInHistory';

type ProtocolMessageCommand = Tagged<'ProtocolMessage', WorkflowCommandAttributesMap['ProtocolMessage']>;

function reply(replyTo: ReplyTo, runId: string, fields: Pick<Reply, 'kind' | 'payload' | 'failure'>): Reply {
  return { requestId: replyTo.requestId, runId, executionStatus: null, ...fields };
}

function outcomeReply(replyTo: ReplyTo, runId: string, outcome: UpdateOutcome): Reply {
  return reply(replyTo, runId, { kind: 'UpdateResult', payload: outcome.result, failure: outcome.failure });
}

/** The messages a workflow task carries: the admitted updates, ordered after the run's last event. */
export function updateMessagesOf(state: MutableStateSnapshot): UpdateRequestMessage[] {
  const sequencingEventId = state.executionInfo.lastEventId;
  return admittedUpdates(state).map((u) => ({
    messageId: `${u.request.updateId}/request`, protocolInstanceId: u.request.updateId, sequencingEventId, request: u.request,
  }));
}

/** True for a task that wrote nothing yet and is no retry: the task an update asked for. */
export function isSpeculative(state: MutableStateSnapshot, task: PendingWorkflowTaskInfo): boolean {
  return task.attempt === 1 && task.scheduledEventId > state.executionInfo.lastEventId;
}

/**
 * Sends a workflow task for admitted updates when none is in flight: a speculative one (its
 * WorkflowTaskScheduled is written only if the task writes anything). Not during a start delay:
 * the first task will carry them.
 */
export function requestTaskForUpdates(ctx: Ctx): void {
  const state = ctx.state;
  if (state.executionInfo.status !== 'Running' || workflowTaskInFlight(state) || awaitingStartDelay(state)) return;
  if (admittedUpdates(state).length === 0) return;
  const info = state.executionInfo;
  state.pendingWorkflowTask = {
    attempt: 1, taskQueue: info.taskQueue, startToCloseTimeoutMs: info.workflowTaskTimeoutMs, scheduledEventId: info.nextEventId,
    scheduledTime: ctx.now, startedEventId: null, startedTime: null, startedIdentity: null, startedRequestId: null,
  };
  dispatchWorkflowTask(ctx);
}

/** Answers a caller of an update that already completed, with the recorded outcome (or where history has it). */
function answerCompleted(ctx: Ctx, record: PendingUpdateInfo): void {
  const replyTo = ctx.command?.replyTo;
  if (!replyTo) return;
  const runId = ctx.state.executionInfo.runId;
  const outcome = outcomeOf(record);
  if (outcome) {
    ctx.replies.push(outcomeReply(replyTo, runId, outcome));
    return;
  }
  const eventId = completedEventIdOf(record);
  const details = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify({ completedEventId: eventId }), 'utf8') };
  const failure = engineFailure(UPDATE_OUTCOME_IN_HISTORY, `update ${record.request.updateId} completed in event ${eventId} of run ${runId}; read its outcome there`, details);
  ctx.replies.push(reply(replyTo, runId, { kind: 'UpdateResult', payload: null, failure }));
}

/** Callers kept per update in flight: a client that polls an update and times out again and again must not grow the state. */
export const MAX_CALLERS_PER_UPDATE = 20;

/**
 * A caller of an update in flight: answered now if it waits for Accepted and the update is, else it
 * waits too (the oldest caller is forgotten beyond {@link MAX_CALLERS_PER_UPDATE}; it has likely given up).
 */
function joinInFlight(ctx: Ctx, entry: PendingUpdateInfo, waitForStage: PendingUpdateInfo['waitForStage']): void {
  const replyTo = ctx.command?.replyTo ?? null;
  if (replyTo === null) return;
  if (waitForStage === 'Accepted' && entry.acceptedEventId !== null) {
    ctx.replies.push(reply(replyTo, ctx.state.executionInfo.runId, { kind: 'Accepted', payload: null, failure: null }));
    return;
  }
  const state = ctx.state;
  state.pendingUpdates.push({ ...entry, waitForStage, replyTo });
  const callers = entriesOf(state, entry.request.updateId);
  if (callers.length > MAX_CALLERS_PER_UPDATE) state.pendingUpdates.splice(state.pendingUpdates.indexOf(callers[0]!), 1);
}

function refuseOverLimits(ctx: Ctx, updateId: string): boolean {
  const state = ctx.state;
  const limits = limitsFor(ctx.config, state.executionInfo.namespace);
  const runId = state.executionInfo.runId;
  const inFlight = inFlightUpdates(state).length;
  if (inFlight >= limits.maxInFlightUpdatesPerRun) {
    reject(ctx, RejectionCode.LimitExceeded, `update ${updateId}: run ${runId} already has ${inFlight} updates in flight, the limit per run; retry when some complete`);
    return true;
  }
  if (acceptedUpdateCount(state) + admittedUpdates(state).length >= limits.maxUpdatesPerRun) {
    reject(ctx, RejectionCode.LimitExceeded, `update ${updateId}: run ${runId} already took ${limits.maxUpdatesPerRun} updates, the limit per run; continue as new to accept more`);
    return true;
  }
  return false;
}

/**
 * UpdateWorkflowExecution: deduplicated by update id (a completed update answers with its
 * outcome, even on a closed run; one in flight gets another caller), refused on a closed run and
 * over the limits, else admitted and delivered with the next workflow task. A request without a
 * name only waits for an update the run already knows (a client's update handle).
 */
export function updateWorkflow(ctx: Ctx, body: CommandBodyOf<'UpdateWorkflowExecution'>): void {
  const state = ctx.state;
  const { request, waitForStage } = body;
  if (!request.updateId) {
    reject(ctx, RejectionCode.InvalidArgument, 'an update needs an updateId');
    return;
  }
  // An empty name only asks for an update the run already knows.
  const invalid = identifierProblem(request.updateId, 'updateId') ?? (request.name ? identifierProblem(request.name, 'update name') : null);
  if (invalid) {
    reject(ctx, RejectionCode.InvalidArgument, invalid);
    return;
  }
  const entries = entriesOf(state, request.updateId);
  const completed = entries.find(isCompletedRecord);
  if (completed) return answerCompleted(ctx, completed);
  if (state.executionInfo.status !== 'Running') {
    reject(ctx, RejectionCode.WorkflowClosed, `update ${request.updateId}: workflow execution already completed (run ${state.executionInfo.runId} is ${state.executionInfo.status})`);
    return;
  }
  if (entries[0]) return joinInFlight(ctx, entries[0], waitForStage);
  if (!request.name) {
    reject(ctx, UPDATE_NOT_FOUND, `update ${request.updateId} not found in run ${state.executionInfo.runId} (it was never sent, or its validator rejected it)`);
    return;
  }
  const what = `update ${request.updateId}`;
  if (refuseOversizedInput(ctx, what, request.args) || refusePlaintextInput(ctx, what, request.args) || refuseOverLimits(ctx, request.updateId)) return;
  state.pendingUpdates.push({ request, admittedTime: ctx.now, acceptedEventId: null, waitForStage, replyTo: ctx.command?.replyTo ?? null });
  requestTaskForUpdates(ctx);
}

function rejectionFailure(updateId: string, cause: Failure): Failure {
  return { ...engineFailure(UPDATE_REJECTED, `update ${updateId} was rejected by the workflow's validator: ${cause.message}`), cause };
}

function rejectUpdate(ctx: Ctx, updateId: string, failure: Failure): void {
  const state = ctx.state;
  for (const entry of entriesOf(state, updateId)) {
    if (entry.replyTo) ctx.replies.push(reply(entry.replyTo, state.executionInfo.runId, { kind: 'Error', payload: null, failure: rejectionFailure(updateId, failure) }));
  }
  state.pendingUpdates = state.pendingUpdates.filter((u) => u.request.updateId !== updateId);
}

function acceptUpdate(ctx: Ctx, command: ProtocolMessageCommand, body: Extract<ProtocolMessageCommand['body'], { type: 'UpdateAcceptance' }>): void {
  const state = ctx.state;
  const entries = entriesOf(state, command.protocolInstanceId);
  const accepted = appendEvent(ctx, {
    type: 'WorkflowExecutionUpdateAccepted', protocolInstanceId: command.protocolInstanceId, acceptedRequestMessageId: body.acceptedRequestMessageId,
    acceptedRequestSequencingEventId: body.acceptedRequestSequencingEventId, acceptedRequest: entries[0]?.request ?? body.acceptedRequest,
  });
  for (const entry of entries) {
    entry.acceptedEventId = accepted.eventId;
    if (entry.waitForStage !== 'Accepted' || entry.replyTo === null) continue;
    ctx.replies.push(reply(entry.replyTo, state.executionInfo.runId, { kind: 'Accepted', payload: null, failure: null }));
    entry.replyTo = null;
  }
}

function completeUpdate(ctx: Ctx, updateId: string, outcome: UpdateOutcome, identity: string): void {
  const state = ctx.state;
  const entries = entriesOf(state, updateId);
  const first = entries[0]!;
  const completed = appendEvent(ctx, { type: 'WorkflowExecutionUpdateCompleted', updateId, acceptedEventId: first.acceptedEventId!, identity, result: outcome.result, failure: outcome.failure });
  for (const entry of entries) if (entry.replyTo) ctx.replies.push(outcomeReply(entry.replyTo, state.executionInfo.runId, outcome));
  const record = completedRecord(first, outcome, completed.eventId);
  state.pendingUpdates = [...state.pendingUpdates.filter((u) => u.request.updateId !== updateId), record];
  forgetOldOutcomes(state);
}

/** Applies one validated protocol message of a completion (see the module comment). */
export function applyProtocolMessage(ctx: Ctx, command: ProtocolMessageCommand, identity: string): void {
  const body = command.body;
  switch (body.type) {
    case 'UpdateAcceptance':
      return acceptUpdate(ctx, command, body);
    case 'UpdateRejection':
      return rejectUpdate(ctx, command.protocolInstanceId, body.failure);
    case 'UpdateResponse': {
      const outcome: UpdateOutcome = body.failure ? { result: null, failure: body.failure } : { result: body.result, failure: null };
      return completeUpdate(ctx, command.protocolInstanceId, outcome, identity);
    }
  }
}

/** True when a completion of this task writes nothing: a speculative task whose commands only reject updates. */
export function completesQuietly(state: MutableStateSnapshot, task: PendingWorkflowTaskInfo, commands: readonly WorkflowCommand[]): boolean {
  return isSpeculative(state, task) && commands.every((c) => c.type === 'ProtocolMessage' && c.body.type === 'UpdateRejection');
}

/**
 * Completes a speculative task that only rejected updates: the callers are answered and nothing
 * of the task is written. Events that arrived meanwhile are appended with a regular task.
 */
export function completeQuietly(ctx: Ctx, commands: readonly WorkflowCommand[]): void {
  for (const command of commands) if (command.type === 'ProtocolMessage') applyProtocolMessage(ctx, command, '');
  ctx.state.pendingWorkflowTask = null;
  ctx.state.workflowTaskDispatched = true;
  if (flushBuffered(ctx)) scheduleWorkflowTask(ctx, 1);
  else requestTaskForUpdates(ctx);
}

/**
 * The run closes (completed, failed, canceled, terminated, timed out, continued as new): every
 * caller of an update in flight gets `WorkflowClosed` ("workflow execution already completed").
 * Completed records stay, so a repeated update id still gets its outcome from the closed run.
 */
export function abortUpdatesInFlight(ctx: Ctx, status: string): void {
  const state = ctx.state;
  const runId = state.executionInfo.runId;
  for (const entry of state.pendingUpdates) {
    if (isCompletedRecord(entry) || entry.replyTo === null) continue;
    const message = `update ${entry.request.updateId}: workflow execution already completed (run ${runId} closed ${status} before the update completed)`;
    ctx.replies.push(reply(entry.replyTo, runId, { kind: 'Error', payload: null, failure: engineFailure(RejectionCode.WorkflowClosed, message) }));
  }
  state.pendingUpdates = state.pendingUpdates.filter(isCompletedRecord);
}
