/**
 * The replayer for CI over many histories (Temporal's `Worker.runReplayHistories`): each exported
 * history is replayed against the given workflow code and reported on its own, so one run of the
 * check lists every history a change would break.
 * @module
 */
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { EvictionRequiredError, HistoryShapeError } from './errors.js';
import { replayHistory, type ReplayError, type ReplayOptions } from './replay-history.js';

/** The verdict on one history. */
export interface HistoryReplayResult {
  workflowType: string;
  workflowId: string;
  runId: string;
  /** Events replayed. */
  eventCount: number;
  ok: boolean;
  /** Why it does not replay: a `NonDeterminismError` (or a deadlock, a code error, a history that is not one run's). */
  error?: ReplayError | HistoryShapeError | EvictionRequiredError;
}

/**
 * Replays each history (one run's events from 1, e.g. from `historyFromExport`) with the code of
 * `workflows` (a bundle, or the path of the workflows module to bundle) and reports each.
 * @example
 * const results = await replayHistories({ workflowsPath: 'workflows/order.ts' }, histories);
 * for (const r of results) if (!r.ok) console.error(r.workflowId, r.error?.message);
 */
export async function replayHistories(
  workflows: WorkflowBundle | { workflowsPath: string },
  histories: Iterable<readonly HistoryEvent[]>,
  options: ReplayOptions = {},
): Promise<HistoryReplayResult[]> {
  const bundle = 'code' in workflows ? workflows : await bundleWorkflowCode({ workflowsPath: workflows.workflowsPath });
  const results: HistoryReplayResult[] = [];
  for (const history of histories) {
    const first = history[0];
    const identity = { workflowType: first?.workflowType ?? '?', workflowId: first?.workflowId ?? '?', runId: first?.runId ?? '?', eventCount: history.length };
    try {
      const outcome = replayHistory(bundle, history, options);
      results.push(outcome.ok ? { ...identity, ok: true } : { ...identity, ok: false, error: outcome.error });
    } catch (err) {
      // Not one run's events from 1 in order: reported against this history, the others still run.
      if (!(err instanceof HistoryShapeError || err instanceof EvictionRequiredError)) throw err;
      results.push({ ...identity, ok: false, error: err });
    }
  }
  return results;
}
