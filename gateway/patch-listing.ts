/**
 * Which open runs still lack a patch: the runs a `deprecatePatch` (or removing the old code path)
 * would break. A run lists the patches it recorded in its `LogbookChangeVersion` search attribute
 * (upserted by `patched` / `deprecatePatch`), so the answer comes from the visibility rows.
 * @module
 */
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import { patchIdsOf } from '../sdk/replay/patch-markers.js';

/** What {@link openRunsLackingPatch} looks for. */
export interface PatchQuery {
  namespace: string;
  workflowType: string;
  patchId: string;
}

/** The open runs of `workflowType` whose recorded patches do not include `patchId`, by start time. */
export async function openRunsLackingPatch(rows: AsyncIterable<VisibilityRow>, query: PatchQuery): Promise<VisibilityRow[]> {
  const lacking: VisibilityRow[] = [];
  for await (const row of rows) {
    if (row.namespace !== query.namespace || row.workflowType !== query.workflowType || row.status !== 'Running') continue;
    if (!patchIdsOf(row.searchAttributes).includes(query.patchId)) lacking.push(row);
  }
  return lacking.sort((a, b) => a.startTime - b.startTime);
}
