/**
 * Recorded values (Temporal Go's `SideEffect`): a value computed once and kept in history, so
 * replays see it even if the code computing it changes.
 * @module
 */
import { currentActivator } from './current-activator.js';

/**
 * Runs `fn` once, the first time the run gets here, and records its result in history (a
 * `sdk.side-effect` marker); on replay returns the recorded value without calling `fn`. Use it
 * for a value that must stay what it was when the run first computed it, whatever later code
 * versions (or earlier `Math.random` draws) do. `fn` must be synchronous and its result
 * encodable by the worker's data converter; the value comes back as the converter decodes it.
 * @throws DeterminismViolationError when replaying code asks for a side effect the history does not have
 * @example
 * const discountCode = sideEffect(() => `D-${uuid4().slice(0, 8)}`);
 */
export function sideEffect<T>(fn: () => T): T {
  const activator = currentActivator('sideEffect');
  const seq = activator.nextSeq('sideEffect');
  if (activator.isReplaying) {
    if (!activator.recordedSideEffects.has(seq)) {
      activator.violation(`sideEffect #${seq} has no recorded value in history: the code asks for a side effect where the recorded run did not`);
    }
    const value = activator.recordedSideEffects.get(seq) as T;
    activator.recordedSideEffects.delete(seq);
    // Pushed again so that it matches the recorded marker like any command.
    activator.pushCommand({ type: 'SideEffectMarker', seq, value: activator.host.encode(value) });
    return value;
  }
  const value = fn();
  activator.pushCommand({ type: 'SideEffectMarker', seq, value: activator.host.encode(value) });
  return value;
}
