import { LogbookError } from '../topics/errors.js';
import type { Payload } from '../topics/payload/index.js';
import type { Failure } from '../topics/schemas/common/v1-records.js';
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import type { Engine } from './engine.js';

/** How a closed run ended, read back from its visibility row and its closing event. */
export interface RunOutcome {
  readonly row: VisibilityRow;
  readonly result: Payload | null;
  readonly failure: Failure | null;
  /** The run that continued this one (continue-as-new), if any. */
  readonly newExecutionRunId: string | null;
}

/**
 * The outcome of a run that is not the workflow's current one (an older run of a continue-as-new
 * chain, or a run before the workflow id was reused): its row gives the status and history length,
 * its last event the result, the failure or the run that continued it. Undefined if the run is
 * unknown or still running. Read on the shard's owner (throws `ShardUnavailableError` elsewhere).
 */
export async function closedRunOutcome(engine: Engine, namespace: string, workflowId: string, runId: string): Promise<RunOutcome | undefined> {
  const row = await engine.visibilityRow(namespace, workflowId, runId);
  if (!row || row.status === 'Running') return undefined;
  const [closing] = await engine.history(namespace, workflowId, runId, { fromEventId: row.historyLength, untilEventId: row.historyLength });
  const a = closing?.attributes;
  switch (a?.type) {
    case 'WorkflowExecutionCompleted':
      return { row, result: a.result, failure: null, newExecutionRunId: a.newExecutionRunId };
    case 'WorkflowExecutionFailed':
      return { row, result: null, failure: a.failure, newExecutionRunId: a.newExecutionRunId };
    case 'WorkflowExecutionContinuedAsNew':
      // A retried run (initiator Retry) keeps the failure that closed it.
      return { row, result: null, failure: a.failure, newExecutionRunId: a.newExecutionRunId };
    case 'WorkflowExecutionTerminated':
      return { row, result: null, failure: engineFailure('Terminated', a.reason || 'terminated'), newExecutionRunId: null };
    case 'WorkflowExecutionTimedOut':
      return { row, result: null, failure: engineFailure('TimedOut', 'workflow timed out'), newExecutionRunId: a.newExecutionRunId };
    case 'WorkflowExecutionCanceled':
      return { row, result: null, failure: engineFailure('Canceled', 'workflow canceled'), newExecutionRunId: null };
    default:
      return { row, result: null, failure: null, newExecutionRunId: null };
  }
}

function engineFailure(code: string, message: string): Failure {
  return { message, source: 'Logbook', stackTrace: '', code, nonRetryable: true, details: null, cause: null };
}

/** What the result endpoint answers: how the run closed (the last run of the chain when following). */
export interface ResultAnswer {
  readonly runId: string | null;
  readonly status: string | null;
  readonly result: Payload | null;
  readonly failure: Failure | null;
  /** Set when the run continued as new (only seen without `followRuns`). */
  readonly newExecutionRunId: string | null;
}

/**
 * Waits for a run to close. With `followRuns` (Temporal's default) a run that continues as new is
 * followed to the end of the chain. The engine answers waits on the current run (or, following, on
 * the chain's first run); a run the engine no longer holds is answered from what it wrote, and a
 * continued one is followed run by run.
 * @throws LogbookError with the engine's code (RunNotFound, WorkflowNotFound, REPLY_TIMEOUT, …)
 */
export async function awaitRunResult(
  engine: Engine,
  namespace: string,
  workflowId: string,
  options: { runId?: string; followRuns: boolean; timeoutMs: number },
): Promise<ResultAnswer> {
  const deadline = Date.now() + options.timeoutMs;
  let runId = options.runId;
  for (;;) {
    const body = { type: 'AwaitWorkflowExecutionResult' as const, followRuns: options.followRuns };
    const command = engine.client.envelope(namespace, workflowId, body, runId ? { runId } : {});
    const reply = await engine.client.send(command, { awaitReply: true, timeoutMs: Math.max(1, deadline - Date.now()) });
    if (!reply) throw new LogbookError('REPLY_TIMEOUT', 'the engine did not answer');
    if (reply.kind === 'Error' && reply.failure?.code === 'RunNotFound' && runId) {
      const outcome = await closedRunOutcome(engine, namespace, workflowId, runId);
      if (!outcome) throw new LogbookError('RunNotFound', reply.failure.message);
      if (options.followRuns && outcome.newExecutionRunId) {
        runId = outcome.newExecutionRunId;
        continue;
      }
      return { runId, status: outcome.row.status, result: outcome.result, failure: outcome.failure, newExecutionRunId: outcome.newExecutionRunId };
    }
    if (reply.kind === 'Error') throw new LogbookError(reply.failure?.code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the request');
    const continued = reply.executionStatus === 'ContinuedAsNew' && reply.runId ? await closedRunOutcome(engine, namespace, workflowId, reply.runId) : undefined;
    return { runId: reply.runId, status: reply.executionStatus, result: reply.payload, failure: reply.failure, newExecutionRunId: continued?.newExecutionRunId ?? null };
  }
}
