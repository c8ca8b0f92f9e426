/**
 * StartWorkflowExecution and SignalWithStartWorkflowExecution: request-id deduplication, then the
 * conflict policy (a run is open) or the reuse policy (the last run is closed), then a new run
 * with the client-chosen run id.
 * @module
 */
import type { Command, CommandBodyOf, StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { identifierProblem } from '../../topics/validation/index.js';
import type { HistoryConfig } from './config.js';
import { finish, openContext, rejectionOnly, type Ctx } from './context.js';
import { terminateRun } from './close-run.js';
import { newRunState, startProblem, startRun } from './new-run.js';
import { cloneData } from './plain-data.js';
import { deliverSignal, seenRequestId, type SignalInput } from './client-requests.js';
import { finishWithinLimits } from './history-limits.js';
import { withCronBackoff } from './cron-runs.js';
import { oversizedInputRejection } from './payload-limits.js';
import { plaintextInputRejection } from './codec-required.js';
import { searchAttributeRejection } from './search-attribute-guard.js';
import { RejectionCode, type Rejection, type Transition } from './transition.js';
import { visibilityRowOf } from './visibility.js';

/** A start command (plain or signal-with-start). */
export type StartCommand = Command<'StartWorkflowExecution' | 'SignalWithStartWorkflowExecution'>;

const closedStatusesForFailedOnly = new Set(['Failed', 'Canceled', 'Terminated', 'TimedOut']);

function answer(command: Command, kind: Reply['kind'], runId: string): Transition {
  const replies: Reply[] = command.replyTo
    ? [{ requestId: command.replyTo.requestId, kind, runId, payload: null, failure: null, executionStatus: null }]
    : [];
  return { state: null, changed: false, events: [], tasks: [], commands: [], replies, visibility: null, closedRun: null, rejection: null };
}

function alreadyStarted(command: Command, current: MutableStateSnapshot, why: string): Transition {
  return rejectionOnly(command.replyTo, current.executionInfo.runId, {
    code: RejectionCode.WorkflowExecutionAlreadyStarted,
    message: `workflow ${command.workflowId} ${why} (run ${current.executionInfo.runId}, ${current.executionInfo.status})`,
  });
}

function signalOf(body: StartCommand['body']): SignalInput | null {
  if (body.type !== 'SignalWithStartWorkflowExecution') return null;
  return { signalName: body.signalName, input: body.signalInput, identity: body.start.identity, header: body.signalHeader };
}

/** Why a signal-with-start's signal name is invalid (the rule of `topics/validation`), or null. */
function signalNameRejection(body: StartCommand['body']): Rejection | null {
  if (body.type !== 'SignalWithStartWorkflowExecution') return null;
  const invalid = identifierProblem(body.signalName, 'signalName');
  return invalid ? { code: RejectionCode.InvalidArgument, message: invalid } : null;
}

/** Starts a run in `ctx`, replacing its state (the previous run, if any, is closed). */
function startIn(ctx: Ctx, command: StartCommand, start: StartWorkflowExecutionRequest): void {
  ctx.state = newRunState(command, start, ctx.now, ctx.config);
  ctx.activityStartedIds.clear();
  startRun(ctx, start, signalOf(command.body));
}

/** Terminates the open run (TerminateExisting) and starts the new one in the same transition. */
function terminateAndStart(current: MutableStateSnapshot, command: StartCommand, start: StartWorkflowExecutionRequest, now: number, config: HistoryConfig): Transition {
  const ctx = openContext(current, now, config, command);
  terminateRun(ctx, 'WorkflowIdConflictPolicy TerminateExisting: a new run was started', null, start.identity);
  ctx.closedRun = { state: cloneData(ctx.state), visibility: visibilityRowOf(ctx.state) };
  startIn(ctx, command, start);
  return finish(ctx, current);
}

/** SignalWithStart to an open run: the signal goes to it. */
function signalExisting(current: MutableStateSnapshot, command: StartCommand, now: number, config: HistoryConfig): Transition {
  const ctx = openContext(current, now, config, command);
  const signal = signalOf(command.body);
  if (signal && deliverSignal(ctx, signal) && command.replyTo) {
    ctx.replies.push({ requestId: command.replyTo.requestId, kind: 'AlreadyStarted', runId: current.executionInfo.runId, payload: null, failure: null, executionStatus: null });
  }
  return finishWithinLimits(ctx, current);
}

function onOpenRun(current: MutableStateSnapshot, command: StartCommand, start: StartWorkflowExecutionRequest, now: number, config: HistoryConfig): Transition {
  const policy = start.workflowIdConflictPolicy;
  if (policy === 'TerminateExisting') return terminateAndStart(current, command, start, now, config);
  // Signal-with-start signals the open run under Fail and UseExisting alike (Temporal).
  if (command.body.type === 'SignalWithStartWorkflowExecution') return signalExisting(current, command, now, config);
  if (policy === 'UseExisting') return answer(command, 'AlreadyStarted', current.executionInfo.runId);
  return alreadyStarted(command, current, 'is already running');
}

function onClosedRun(current: MutableStateSnapshot, command: StartCommand, start: StartWorkflowExecutionRequest, now: number, config: HistoryConfig): Transition {
  const policy = start.workflowIdReusePolicy;
  if (policy === 'RejectDuplicate') return alreadyStarted(command, current, 'was already run and the reuse policy is RejectDuplicate');
  if (policy === 'AllowDuplicateFailedOnly' && !closedStatusesForFailedOnly.has(current.executionInfo.status)) {
    return alreadyStarted(command, current, 'completed and the reuse policy is AllowDuplicateFailedOnly');
  }
  const ctx = openContext(current, now, config, command);
  startIn(ctx, command, start);
  return finish(ctx, current);
}

/** Applies a start or signal-with-start to the workflow's state (null: no run yet). */
export function applyStart(current: MutableStateSnapshot | null, command: StartCommand, now: number, config: HistoryConfig): Transition {
  const body = command.body as CommandBodyOf<'StartWorkflowExecution'> | CommandBodyOf<'SignalWithStartWorkflowExecution'>;
  const requested: StartWorkflowExecutionRequest = body.type === 'StartWorkflowExecution' ? body : body.start;
  const what = `${body.type} of ${command.workflowId}`;
  const problem = startProblem(command, requested) ?? signalNameRejection(body) ?? oversizedInputRejection(config, command.namespace, what, body)
    ?? plaintextInputRejection(config, command.namespace, [requested.taskQueue], what, body)
    ?? searchAttributeRejection(config, command.namespace, what, requested.searchAttributes);
  if (problem) return rejectionOnly(command.replyTo, current?.executionInfo.runId ?? null, problem);
  const start = withCronBackoff(requested, now);
  if (current === null) {
    const ctx = openContext(newRunState(command, start, now, config), now, config, command);
    startRun(ctx, start, signalOf(command.body));
    return finish(ctx, null);
  }
  // The same start again (a retried request, or the same client-chosen run id): idempotent.
  if (current.startRequestId === command.requestId || current.executionInfo.runId === start.runId) {
    return answer(command, 'StartAccepted', current.executionInfo.runId);
  }
  const running = current.executionInfo.status === 'Running';
  if (running && body.type === 'SignalWithStartWorkflowExecution' && seenRequestId(current, command.requestId)) {
    return answer(command, 'AlreadyStarted', current.executionInfo.runId);
  }
  return running ? onOpenRun(current, command, start, now, config) : onClosedRun(current, command, start, now, config);
}
