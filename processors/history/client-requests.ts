/**
 * Inputs from clients to a running run: signals, cancellation requests, termination, and callers
 * waiting for the result. Signals and cancel requests are deduplicated by request id within a
 * bounded window and buffered like every event while a workflow task is in flight.
 * @module
 */
import type { CommandBodyOf } from '../../topics/schemas/command/index.js';
import type { ExternalInitiatorInfo, Header } from '../../topics/schemas/common/v1-records.js';
import type { Payload } from '../../topics/payload/payload.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { identifierProblem } from '../../topics/validation/index.js';
import { limitsFor } from './config.js';
import { reject, type Ctx } from './context.js';
import { resultReply, terminateRun } from './close-run.js';
import { bufferWouldOverflow, deliver } from './delivery.js';
import { refuseOversizedInput } from './payload-limits.js';
import { refusePlaintextInput } from './codec-required.js';
import { isInheritanceMark } from './reset-children.js';
import { RejectionCode } from './transition.js';

/** A signal's content. */
export interface SignalInput {
  signalName: string;
  input: Payload[];
  identity: string;
  header: Header;
  /** The run that sent it through an external workflow handle; null for a client. */
  externalInitiator?: ExternalInitiatorInfo | null;
}

/** True if the run already accepted the request with this id (within the window). */
export function seenRequestId(state: MutableStateSnapshot, requestId: string): boolean {
  return state.requestIds.includes(requestId);
}

/**
 * Remembers an accepted request id; the oldest falls out of the window. A reset's inheritance
 * marks share the list but never fall out: the run needs them as long as it has the child (they
 * are as few as the pending children, and the next reset rebuilds them).
 */
export function rememberRequestId(ctx: Ctx, requestId: string): void {
  const ids = ctx.state.requestIds;
  ids.push(requestId);
  let excess = ids.filter((id) => !isInheritanceMark(id)).length - ctx.config.requestIdWindow;
  if (excess > 0) ctx.state.requestIds = ids.filter((id) => isInheritanceMark(id) || excess-- <= 0);
}

function refuseIfClosed(ctx: Ctx, what: string): boolean {
  if (ctx.state.executionInfo.status === 'Running') return false;
  reject(ctx, RejectionCode.WorkflowClosed, `${what}: run ${ctx.state.executionInfo.runId} is ${ctx.state.executionInfo.status}`);
  return true;
}

function refuseIfFull(ctx: Ctx, what: string): boolean {
  if (!bufferWouldOverflow(ctx, 1)) return false;
  reject(ctx, RejectionCode.ResourceExhausted, `${what}: ${ctx.config.maxBufferedEvents} events already wait for the workflow task in flight; retry later`);
  return true;
}

function refuseIfSignalLimit(ctx: Ctx, what: string): boolean {
  const limit = limitsFor(ctx.config, ctx.state.executionInfo.namespace).maxSignalsPerRun;
  if (ctx.state.signalCount < limit) return false;
  reject(ctx, RejectionCode.LimitExceeded, `${what}: run ${ctx.state.executionInfo.runId} already accepted ${limit} signals, the limit per run; continue as new to accept more`);
  return true;
}

/**
 * Delivers a signal to the running run (deduplicated by the command's request id). Returns false
 * if it was refused: the run is closed, its buffer is full, or it reached its signal limit.
 */
export function deliverSignal(ctx: Ctx, signal: SignalInput): boolean {
  const requestId = ctx.command?.requestId ?? '';
  if (seenRequestId(ctx.state, requestId)) return true;
  const what = `signal ${signal.signalName}`;
  if (refuseIfClosed(ctx, what) || refuseOversizedInput(ctx, what, signal.input) || refusePlaintextInput(ctx, what, signal.input) || refuseIfSignalLimit(ctx, what) || refuseIfFull(ctx, what)) return false;
  rememberRequestId(ctx, requestId);
  ctx.state.signalCount++;
  deliver(ctx, [{ type: 'WorkflowExecutionSignaled', ...signal, requestId, externalInitiator: signal.externalInitiator ?? null }]);
  return true;
}

/** SignalWorkflowExecution, from a client or another run (see `external-requests.ts`). */
export function signalWorkflow(ctx: Ctx, body: CommandBodyOf<'SignalWorkflowExecution'>): void {
  const invalid = identifierProblem(body.signalName, 'signalName');
  if (invalid) return reject(ctx, RejectionCode.InvalidArgument, invalid);
  deliverSignal(ctx, { signalName: body.signalName, input: body.input, identity: body.identity, header: body.header, externalInitiator: body.externalInitiator });
}

/** RequestCancelWorkflowExecution: recorded once; the workflow code decides what to do. */
export function requestCancelWorkflow(ctx: Ctx, body: CommandBodyOf<'RequestCancelWorkflowExecution'>): void {
  const requestId = ctx.command?.requestId ?? '';
  if (seenRequestId(ctx.state, requestId)) return;
  if (refuseIfClosed(ctx, 'cancel request') || ctx.state.executionInfo.cancelRequested) return;
  if (refuseIfFull(ctx, 'cancel request')) return;
  rememberRequestId(ctx, requestId);
  ctx.state.executionInfo.cancelRequested = true;
  deliver(ctx, [{ type: 'WorkflowExecutionCancelRequested', cause: body.reason, externalInitiator: body.externalInitiator, identity: body.identity }]);
}

/** TerminateWorkflowExecution: closes the run at once. */
export function terminateWorkflow(ctx: Ctx, body: CommandBodyOf<'TerminateWorkflowExecution'>): void {
  if (refuseIfClosed(ctx, 'terminate')) return;
  terminateRun(ctx, body.reason, body.details, body.identity);
}

/**
 * AwaitWorkflowExecutionResult: answered now if the run is closed, else when it closes. A waiter
 * with `followRuns` moves to the run that continues this one (continue-as-new) and is answered
 * when the chain ends; without it, a continued run answers with status ContinuedAsNew.
 */
export function awaitResult(ctx: Ctx, body: CommandBodyOf<'AwaitWorkflowExecutionResult'>): void {
  const replyTo = ctx.command?.replyTo;
  if (!replyTo) {
    reject(ctx, RejectionCode.InvalidArgument, 'AwaitWorkflowExecutionResult needs a replyTo');
    return;
  }
  const state = ctx.state;
  if (state.executionInfo.status !== 'Running') {
    ctx.replies.push(resultReply(state, replyTo.requestId));
    return;
  }
  if (state.resultWaiters.some((w) => w.replyTo.requestId === replyTo.requestId)) return;
  state.resultWaiters.push({ replyTo, followRuns: body.followRuns });
}
