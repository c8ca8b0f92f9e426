/**
 * Versioning of workflow code (Temporal's `patched` / `deprecatePatch`): a change that would make
 * running workflows replay differently goes behind `if (patched(id))`, so runs that started on the
 * old code keep the old path and new runs take the new one.
 * @module
 */
import { currentActivator } from './current-activator.js';
import type { Activator } from './activator.js';

/** Search attribute listing a run's recorded patches (see `sdk/replay/patch-markers.ts`). */
const PATCH_SEARCH_ATTRIBUTE = 'LogbookChangeVersion';

/**
 * True when the run should take the new code path of patch `patchId`: always when the code runs
 * live (the first time, it records a patch marker and adds the id to the run's
 * `LogbookChangeVersion` search attribute), and on replay only if the history has the marker,
 * i.e. the run took the new path when it first got here. Runs started before the patch was
 * deployed replay on the old path.
 * @example
 * if (patched('send-receipt')) await sendReceipt(order);
 */
export function patched(patchId: string): boolean {
  return patch(currentActivator('patched'), patchId, false);
}

/**
 * Marks patch `patchId` as deprecated once no open run lacks its marker (the gateway's
 * `open-runs-lacking` listing is empty): the code takes the new path unconditionally, records a
 * deprecated marker, and replays histories with or without the marker. The call can be removed
 * once the runs that recorded the marker with `patched` have closed: replay skips deprecated
 * markers, not the others.
 * @example
 * deprecatePatch('send-receipt');
 * await sendReceipt(order);
 */
export function deprecatePatch(patchId: string): void {
  patch(currentActivator('deprecatePatch'), patchId, true);
}

// As Temporal: live, the patch applies; on replay, only if the history recorded it. The marker is
// sent once per run, and only when the patch applies (on replay, then, it matches the recorded one).
function patch(activator: Activator, patchId: string, deprecated: boolean): boolean {
  const applies = !activator.isReplaying || activator.knownPresentPatches.has(patchId);
  if (applies && !activator.sentPatches.has(patchId)) {
    // Pushed first: in a query handler the push throws (queries record nothing) and no state changes.
    activator.pushCommand({ type: 'SetPatchMarker', patchId, deprecated });
    activator.sentPatches.add(patchId);
    const ids = [...activator.sentPatches];
    activator.pushCommand({ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { [PATCH_SEARCH_ATTRIBUTE]: { type: 'KeywordList', value: ids } } });
  }
  return applies;
}
