/**
 * The history limits of a run (defaults in `config.ts`, per namespace through `limitsFor`):
 *
 * - **suggestion**: from `historyCountSuggestContinueAsNew` events or
 *   `historySizeSuggestContinueAsNewBytes`, each workflow task carries `suggestContinueAsNew`
 *   (recorded in its WorkflowTaskStarted), which the SDK shows as `workflowInfo().continueAsNewSuggested`;
 * - **warning**: the first workflow task that completes at or past `historyCountWarn` events or
 *   `historySizeWarnBytes` gets a `logbook.history-limit-warning` marker after its commands
 *   (Temporal only logs; a marker makes the warning visible in the history itself);
 * - **hard limit**: a run with more than `historyCountLimit` events or `historySizeLimitBytes` is
 *   terminated at the end of the input that pushed it over, with a reason naming the limit
 *   (Temporal's behaviour).
 * @module
 */
import { HISTORY_LIMIT_WARNING_MARKER } from '../../topics/schemas/history-event/engine-markers.js';
import { makePayload, type Payload } from '../../topics/payload/payload.js';
import type { ExecutionInfo, MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { limitsFor, type HistoryLimits } from './config.js';
import { appendEvent, finish, type Ctx } from './context.js';
import { terminateRun } from './close-run.js';
import type { Transition } from './transition.js';

/** Identity recorded in WorkflowExecutionTerminated when the engine ends a run over its limits. */
export const HISTORY_LIMIT_IDENTITY = 'logbook-history-limits';

/** What a workflow task tells the worker about the history, and its WorkflowTaskStarted records. */
export interface StartedFacts {
  /** Estimated size of the history before WorkflowTaskStarted. */
  historySizeBytes: number;
  suggestContinueAsNew: boolean;
}

/** The facts of a task whose WorkflowTaskStarted gets `startedEventId` after `historySizeBytes` of history. */
export function startedFacts(limits: HistoryLimits, startedEventId: number, historySizeBytes: number): StartedFacts {
  const suggest = startedEventId >= limits.historyCountSuggestContinueAsNew || historySizeBytes >= limits.historySizeSuggestContinueAsNewBytes;
  return { historySizeBytes, suggestContinueAsNew: suggest };
}

/** Why the run is over its hard limits, or null. */
export function historyLimitExceeded(limits: HistoryLimits, info: ExecutionInfo): string | null {
  if (info.lastEventId > limits.historyCountLimit) {
    return `history event count limit exceeded: ${info.lastEventId} events, the limit is ${limits.historyCountLimit}; continue as new before the history grows this long`;
  }
  if (info.historySizeBytes > limits.historySizeLimitBytes) {
    return `history size limit exceeded: ${info.historySizeBytes} bytes, the limit is ${limits.historySizeLimitBytes}; continue as new before the history grows this large`;
  }
  return null;
}

const json = (value: unknown): Payload[] => [makePayload('json/plain', Buffer.from(JSON.stringify(value), 'utf8'))];

/**
 * Writes the warning marker once per run, after the commands of the workflow task that completed
 * with the history at or past a warning limit.
 */
export function warnIfHistoryLarge(ctx: Ctx, workflowTaskCompletedEventId: number): void {
  const state = ctx.state;
  const info = state.executionInfo;
  const limits = limitsFor(ctx.config, info.namespace);
  if (state.historyLimitWarned) return;
  if (info.lastEventId < limits.historyCountWarn && info.historySizeBytes < limits.historySizeWarnBytes) return;
  state.historyLimitWarned = true;
  appendEvent(ctx, {
    type: 'MarkerRecorded', markerName: HISTORY_LIMIT_WARNING_MARKER, workflowTaskCompletedEventId, header: {}, failure: null,
    details: {
      historyLength: json(info.lastEventId + 1), historySizeBytes: json(info.historySizeBytes),
      historyCountLimit: json(limits.historyCountLimit), historySizeLimitBytes: json(limits.historySizeLimitBytes),
    },
  });
}

/** Terminates the run if the input pushed it past its hard limits; work dispatched by the same input is withdrawn. */
function enforceHistoryLimits(ctx: Ctx): void {
  const info = ctx.state.executionInfo;
  if (ctx.rejection || info.status !== 'Running') return;
  const reason = historyLimitExceeded(limitsFor(ctx.config, info.namespace), info);
  if (!reason) return;
  // Tasks this input would send for the run are never worked on: the run closes in the same commit.
  const runId = info.runId;
  for (let i = ctx.tasks.length - 1; i >= 0; i--) {
    const task = ctx.tasks[i]!;
    if (task.runId === runId && task.type !== 'CancelActivity') ctx.tasks.splice(i, 1);
  }
  terminateRun(ctx, reason, null, HISTORY_LIMIT_IDENTITY);
}

/** {@link finish} for inputs to an existing run: enforces the hard limits first. */
export function finishWithinLimits(ctx: Ctx, original: MutableStateSnapshot): Transition {
  enforceHistoryLimits(ctx);
  return finish(ctx, original);
}
