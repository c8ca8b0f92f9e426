/**
 * The replayer for CI: replays exported histories against the current workflow code, so an
 * incompatible change is caught before it is deployed (as Temporal's `Worker.runReplayHistory`).
 * @module
 */
import type { DataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { DeadlockError } from '../workflow/sandbox.js';
import { HistoryShapeError, NonDeterminismError, WorkflowTaskFailedError } from './errors.js';
import { WorkflowRun } from './workflow-run.js';

/** Why a history does not replay. */
export type ReplayError = NonDeterminismError | DeadlockError | WorkflowTaskFailedError;

/** Options of {@link replayHistory}. */
export interface ReplayOptions {
  dataConverter?: DataConverter;
  deadlockTimeoutMs?: number;
}

/**
 * Replays one run's recorded history (events from 1, as exported) with the bundle's code. Every
 * recorded workflow task is re-run and its commands compared with the recorded ones; an open task
 * at the end is not run. Workflow logging is silent.
 *
 * @returns `{ ok: true }`, or the first failure: a {@link NonDeterminismError} naming the event,
 *   the recorded event and the command the code produced; or the code failing or deadlocking
 *   while replaying a recorded task
 * @throws HistoryShapeError when the history is not one run's events from 1 in the engine's shape
 * @example
 * const result = replayHistory(bundle, JSON.parse(await readFile('histories/order-42.json', 'utf8')));
 * assert.ok(result.ok, result.ok ? '' : result.error.message);
 */
export function replayHistory(
  bundle: WorkflowBundle,
  history: readonly HistoryEvent[],
  options: ReplayOptions = {},
): { ok: true } | { ok: false; error: ReplayError } {
  const first = history[0];
  if (first === undefined || first.attributes.type !== 'WorkflowExecutionStarted') {
    throw new HistoryShapeError('a history to replay must start with WorkflowExecutionStarted (event 1)');
  }
  const { namespace, workflowId, runId, workflowType, taskQueue } = first;
  const run = WorkflowRun.create(bundle, { namespace, workflowId, runId, workflowType, taskQueue }, { ...options, logger: () => undefined });
  try {
    run.replayRecorded(history);
    return { ok: true };
  } catch (err) {
    if (err instanceof NonDeterminismError || err instanceof DeadlockError || err instanceof WorkflowTaskFailedError) {
      return { ok: false, error: err };
    }
    throw err;
  } finally {
    run.dispose();
  }
}
