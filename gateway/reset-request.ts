/**
 * Resetting a run from an engine node: reads the run's state and history from the shard's local
 * store (this node must own the shard), checks the reset point, and sends the
 * ResetWorkflowExecution command carrying the events the state machine needs (it reads no
 * history itself). A run that moved on between the read and the command is read again.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { LogbookError } from '../topics/errors.js';
import type { ResetBaseEvent } from '../topics/schemas/command/index.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';
import { isReappliedChildOutcome, resetPointOf } from '../processors/history/index.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';

/** What to reset and why. */
export interface ResetRequest {
  readonly namespace: string;
  readonly workflowId: string;
  /** The run to reset; default the current run (the only one that can be reset). */
  readonly runId?: string;
  /** A WorkflowTaskCompleted, WorkflowTaskFailed, WorkflowTaskTimedOut or WorkflowTaskStarted event id. */
  readonly eventId: number;
  readonly reason: string;
  /** Makes a retried call idempotent: the same request id answers with the same new run. */
  readonly requestId?: string;
  readonly identity: string;
}

/** How many times a reset is rebuilt when the run moved on while it was being built. */
const BASE_CHANGED_ATTEMPTS = 5;

/**
 * The events a reset to `eventId` carries: 1..eventId, then the signals after it and the outcomes
 * of the children initiated before the reset point (both re-applied to the new run).
 */
export function resetBaseEvents(events: readonly HistoryEvent[], eventId: number): ResetBaseEvent[] {
  const point = resetPointOf(events, eventId);
  const pointEventId = 'problem' in point ? eventId : point.startedEventId;
  return events
    .filter((e) => e.eventId <= eventId || e.attributes.type === 'WorkflowExecutionSignaled' || isReappliedChildOutcome(e, pointEventId))
    .map(({ eventId: id, eventTime, attributes }) => ({ eventId: id, eventTime, attributes }));
}

/**
 * Resets a run and resolves with the new run's id.
 * @throws HttpError 404 `WorkflowNotFound` / `RunNotFound`, 400 `InvalidArgument` (not a workflow
 *   task event, or a reset point the engine cannot rebuild); `ShardUnavailableError` when another
 *   node owns the shard (the route forwards the request there)
 */
export async function resetWorkflow(engine: Engine, request: ResetRequest): Promise<string> {
  if (!Number.isSafeInteger(request.eventId) || request.eventId < 1) throw new HttpError(400, 'InvalidArgument', "'eventId' must be a positive integer");
  const requestId = request.requestId ?? randomUUID();
  for (let attempt = 1; ; attempt++) {
    const state = await engine.describe(request.namespace, request.workflowId);
    if (!state) throw new HttpError(404, 'WorkflowNotFound', `workflow ${request.workflowId} does not exist in namespace ${request.namespace}`);
    const info = state.executionInfo;
    const baseRunId = request.runId ?? info.runId;
    const isCurrent = baseRunId === info.runId;
    // A retried request (same request id) naming the run it already reset goes to the engine,
    // which answers with the run it created; any other older run cannot be reset.
    if (!isCurrent && !request.requestId) {
      throw new HttpError(404, 'RunNotFound', `run ${baseRunId} of workflow ${request.workflowId} is not its current run (${info.runId}); only the current run can be reset`);
    }
    const events = isCurrent ? await engine.history(request.namespace, request.workflowId, baseRunId) : [];
    const point = isCurrent ? resetPointOf(events, request.eventId) : null;
    if (point && 'problem' in point) throw new HttpError(400, 'InvalidArgument', point.problem);
    const body = {
      type: 'ResetWorkflowExecution' as const, baseRunId, workflowTaskEventId: request.eventId, reason: request.reason,
      identity: request.identity, baseLastEventId: info.lastEventId, baseEvents: resetBaseEvents(events, request.eventId),
    };
    const reply = await engine.client.send(engine.client.envelope(request.namespace, request.workflowId, body, { requestId }), { awaitReply: true });
    if (!reply) throw new LogbookError('REPLY_TIMEOUT', 'the engine did not answer');
    if (reply.kind !== 'Error') return reply.runId!;
    const code = reply.failure?.code ?? 'ENGINE_ERROR';
    const message = reply.failure?.message ?? 'the engine refused the reset';
    if (code === 'ResetBaseChanged' && attempt < BASE_CHANGED_ATTEMPTS) continue;
    if (code === 'InvalidArgument') throw new HttpError(400, code, message);
    throw new LogbookError(code, message, { retriable: code === 'ResetBaseChanged' });
  }
}
