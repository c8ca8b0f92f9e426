/**
 * Long polls that end before their outcome. A caller that waits (for a result, for an update) sets
 * how long; when that runs out, the engine has not failed — the run is simply not there yet — so
 * the answer is the run's current stage, not a 504. A wait whose shard cannot be read says so
 * (503 with Retry-After, from the describe below), so "not yet" is never claimed without seeing it.
 * @module
 */
import { LogbookError } from '../topics/errors.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';

/** True for the error a wait for the engine's reply ends with when its time runs out. */
export function isWaitElapsed(error: unknown): boolean {
  return error instanceof LogbookError && error.code === 'REPLY_TIMEOUT';
}

/**
 * The workflow's current state after a wait ran out: read from the shard's owner (here, or
 * `ShardUnavailableError` → 503 while it moves), 404 if there is no such workflow.
 */
export async function stateAfterWait(engine: Engine, namespace: string, workflowId: string): Promise<MutableStateSnapshot> {
  const state = await engine.describe(namespace, workflowId);
  if (!state) throw new HttpError(404, 'WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
  return state;
}

/** The stage an update reached, as the run's state shows it after a wait ran out. */
export function updateStageOf(state: MutableStateSnapshot, updateId: string | undefined): 'Admitted' | 'Accepted' | 'Unknown' {
  const pending = updateId === undefined ? undefined : state.pendingUpdates.find((u) => u.request.updateId === updateId);
  if (!pending) return 'Unknown';
  return pending.acceptedEventId === null ? 'Admitted' : 'Accepted';
}
