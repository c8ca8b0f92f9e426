/**
 * Workflow updates across a reset. The kept events hold every update accepted before the reset
 * point: one completed before the point is done (its record answers a repeated update id with the
 * same outcome, as in the base run); one accepted and not completed at the point is in flight in
 * the new run — the worker, replaying the new history, gets it again from its Accepted event and
 * runs the handler again, and the handler's response completes it in the new run. The base run's
 * callers still waiting for such an update follow it to the new run instead of being told the run
 * closed. Updates admitted or accepted after the point are not re-applied (newer Temporal servers
 * can re-apply them; signals are re-applied): their callers get `WorkflowClosed` when the base run is terminated, and may send
 * the update again to the new run.
 * @module
 */
import type { ResetBaseEvent } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { completedRecord, entriesOf, forgetOldOutcomes, isCompletedRecord } from './update-registry.js';

/** Applies one kept event's effect on the update registry of the run a reset rebuilds. */
export function foldUpdateEvent(state: MutableStateSnapshot, event: ResetBaseEvent): void {
  const a = event.attributes;
  if (a.type === 'WorkflowExecutionUpdateAccepted') {
    state.pendingUpdates.push({ request: a.acceptedRequest, admittedTime: event.eventTime, acceptedEventId: event.eventId, waitForStage: 'Completed', replyTo: null });
    return;
  }
  if (a.type !== 'WorkflowExecutionUpdateCompleted') return;
  const accepted = entriesOf(state, a.updateId).find((u) => !isCompletedRecord(u));
  if (!accepted) return;
  const outcome = a.failure ? { result: null, failure: a.failure } : { result: a.result, failure: null };
  state.pendingUpdates = [...state.pendingUpdates.filter((u) => u.request.updateId !== a.updateId), completedRecord(accepted, outcome, event.eventId)];
  forgetOldOutcomes(state);
}

/**
 * Moves the base run's callers of the updates still in flight in the new run (accepted before the
 * point, not completed there) to the new run, so that the base run's termination does not answer
 * them: they get the outcome the new run's handler gives.
 */
export function moveUpdateCallers(base: MutableStateSnapshot, rebuilt: MutableStateSnapshot): void {
  for (const entry of rebuilt.pendingUpdates.filter((u) => !isCompletedRecord(u))) {
    const callers = entriesOf(base, entry.request.updateId).filter((u) => !isCompletedRecord(u) && u.replyTo !== null);
    for (const caller of callers) {
      rebuilt.pendingUpdates.push({ ...entry, waitForStage: caller.waitForStage, replyTo: caller.replyTo });
      caller.replyTo = null;
    }
  }
}
