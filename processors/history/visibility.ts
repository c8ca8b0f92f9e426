/**
 * The visibility row of a run (`logbook.visibility`), derived from its snapshot.
 * @module
 */
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';

/** The summary row of the run in `state`: identity, status, times, size, memo, search attributes. */
export function visibilityRowOf(state: MutableStateSnapshot): VisibilityRow {
  const info = state.executionInfo;
  return {
    namespace: info.namespace,
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    taskQueue: info.taskQueue,
    status: info.status,
    startTime: info.startTime,
    closeTime: info.closeTime,
    executionTime: info.executionTime,
    historyLength: info.lastEventId,
    memo: state.memo,
    searchAttributes: state.searchAttributes,
    historySizeBytes: info.historySizeBytes,
  };
}
