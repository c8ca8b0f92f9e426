/**
 * Long polls that end before their outcome. A caller that waits (for a result, for an update) sets
 * how long; when that runs out, the engine has not failed — the run is simply not there yet — so
 * the answer is the run's current standing, not a 504. The standing is read where the shard is
 * served: here, or from its owner's gateway; a shard nobody serves answers 503 with Retry-After,
 * so "not yet" is never claimed without seeing it.
 * @module
 */
import { LogbookError } from '../topics/errors.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import { ShardUnavailableError, type Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import type { PeerCalls } from './auth/peer-calls.js';

/** Where a run stands: what a long poll whose wait ran out answers with. */
export interface RunStanding {
  readonly runId: string;
  readonly status: string;
  /** Updates in flight: admitted, or accepted by the workflow and not yet completed. */
  readonly updates: readonly { readonly updateId: string; readonly accepted: boolean }[];
}

/** True for the error a wait for the engine's reply ends with when its time runs out. */
export function isWaitElapsed(error: unknown): boolean {
  return error instanceof LogbookError && error.code === 'REPLY_TIMEOUT';
}

/**
 * The workflow's standing after a wait ran out: read from this node's store, or from the owner's
 * gateway when another node serves the shard. 404 if there is no such workflow.
 * @throws ShardUnavailableError (→ 503) while the shard has no owner or its owner cannot answer
 */
export async function standingAfterWait(engine: Engine, namespace: string, workflowId: string): Promise<RunStanding> {
  let state: MutableStateSnapshot | null;
  try {
    state = await engine.describe(namespace, workflowId);
  } catch (error) {
    if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint) throw error;
    return standingFromOwner(engine.peers, error.ownerEndpoint, namespace, workflowId, error);
  }
  if (!state) throw notFound(namespace, workflowId);
  const { runId, status } = state.executionInfo;
  return { runId, status, updates: state.pendingUpdates.map((u) => ({ updateId: u.request.updateId, accepted: u.acceptedEventId !== null })) };
}

/** The stage an update reached, as the run's standing shows it after a wait ran out. */
export function updateStageOf(standing: RunStanding, updateId: string | undefined): 'Admitted' | 'Accepted' | 'Unknown' {
  const pending = updateId === undefined ? undefined : standing.updates.find((u) => u.updateId === updateId);
  if (!pending) return 'Unknown';
  return pending.accepted ? 'Accepted' : 'Admitted';
}

/** The JSON view of `GET …/workflows/{id}` that a standing needs. */
interface RunStateView {
  executionInfo: { runId: string; status: string };
  pendingUpdates: { request: { updateId: string }; acceptedEventId: number | null }[];
}

// Any answer but 200 or 404 from the owner (it is moving, or unreachable) leaves the shard unavailable.
async function standingFromOwner(peers: PeerCalls, owner: string, namespace: string, workflowId: string, unavailable: ShardUnavailableError): Promise<RunStanding> {
  const url = `${owner}/api/v1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  const response = await fetch(url, { headers: peers.headers('GET', url), signal: AbortSignal.timeout(5_000) }).catch(() => {
    throw unavailable;
  });
  if (response.status === 404) throw notFound(namespace, workflowId);
  if (!response.ok) throw unavailable;
  const view = (await response.json().catch(() => {
    throw unavailable;
  })) as RunStateView;
  return {
    runId: view.executionInfo.runId,
    status: view.executionInfo.status,
    updates: view.pendingUpdates.map((u) => ({ updateId: u.request.updateId, accepted: u.acceptedEventId !== null })),
  };
}

function notFound(namespace: string, workflowId: string): HttpError {
  return new HttpError(404, 'WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
}

/**
 * How long past the caller's own wait a long poll may take to say where the run stands (the
 * follow-up reads after the wait ran out, a shard owner asked through its gateway).
 */
export const STANDING_GRACE_MS = 6_000;

/**
 * Runs a long poll's work, answering within the caller's wait plus {@link STANDING_GRACE_MS}: work
 * still under way then (a shard or broker failing over under it) ends with 503 SHARD_UNAVAILABLE
 * and Retry-After, so a caller is never held past its own wait by a failover.
 */
export async function withinWaitAndGrace<T>(engine: Engine, target: { namespace: string; workflowId: string }, waitMs: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const shard = engine.catalog.shardOf(target.namespace, target.workflowId);
      reject(new ShardUnavailableError(shard, undefined, `no answer within the request's wait of ${waitMs} ms and ${STANDING_GRACE_MS} ms more (the shard or a broker is failing over); retry shortly`));
    }, waitMs + STANDING_GRACE_MS);
  });
  const working = work();
  working.catch(() => undefined);
  try {
    return await Promise.race([working, late]);
  } finally {
    clearTimeout(timer);
  }
}
