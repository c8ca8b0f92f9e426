/**
 * Which open runs still lack a patch: the runs a `deprecatePatch` (or removing the old code path)
 * would break. A run lists the patches it recorded in its `LogbookChangeVersion` search attribute
 * (upserted by `patched` / `deprecatePatch`), so the answer comes from the visibility rows: this
 * node's shards, merged with every other member's, like list and count.
 * @module
 */
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import { patchIdsOf } from '../sdk/replay/patch-markers.js';
import type { Engine } from './engine.js';
import { askPeers, requireEveryShard, scanLocalVisibility } from './shard-coverage.js';

/** What {@link openRunsLackingPatch} looks for. */
export interface PatchQuery {
  namespace: string;
  workflowType: string;
  patchId: string;
}

/** One open run lacking the patch, as the HTTP answer lists it. */
export interface LackingRunView {
  workflowId: string;
  runId: string;
  startTime: string;
}

/** The open runs of `workflowType` whose recorded patches do not include `patchId`, by start time. */
export async function openRunsLackingPatch(rows: Iterable<VisibilityRow> | AsyncIterable<VisibilityRow>, query: PatchQuery): Promise<VisibilityRow[]> {
  const lacking: VisibilityRow[] = [];
  for await (const row of rows) {
    if (row.namespace !== query.namespace || row.workflowType !== query.workflowType || row.status !== 'Running') continue;
    if (!patchIdsOf(row.searchAttributes).includes(query.patchId)) lacking.push(row);
  }
  return lacking.sort((a, b) => a.startTime - b.startTime);
}

/**
 * The open runs lacking the patch on this node's shards when `local` (the answer names them in
 * `shards`), else on every shard (each other member answers its own with `local=1`), by start
 * time then workflow id.
 * @throws HttpError 503 `SHARD_UNAVAILABLE` naming the shards no node could read
 */
export async function listOpenRunsLackingPatch(engine: Engine, query: PatchQuery, local: boolean): Promise<{ runs: LackingRunView[]; shards?: number[] }> {
  const scan = await scanLocalVisibility(engine);
  const mine = { runs: (await openRunsLackingPatch(scan.rows, query)).map(viewOf), shards: scan.shards };
  if (local) return mine;
  const path = `/api/v1/namespaces/${encodeURIComponent(query.namespace)}/patches/${encodeURIComponent(query.patchId)}/open-runs-lacking`;
  const answers = [mine, ...(await askPeers<{ runs: LackingRunView[] }>(engine, path, new URLSearchParams({ workflowType: query.workflowType })))];
  requireEveryShard(engine, answers.flatMap((a) => a.shards));
  return { runs: answers.flatMap((a) => a.runs).sort((a, b) => a.startTime.localeCompare(b.startTime) || a.workflowId.localeCompare(b.workflowId)) };
}

function viewOf(row: VisibilityRow): LackingRunView {
  return { workflowId: row.workflowId, runId: row.runId, startTime: new Date(row.startTime).toISOString() };
}
