/**
 * How long a worker waits before it claims a task (workflow or activity) it received for the
 * first time. A task answered sooner sends no claim at all — the engine takes the completion (or
 * failure, or heartbeat) as the claim too — so a short task costs one command and one shard input
 * instead of two. The claim arms the engine's start-to-close and heartbeat timers and shows the
 * task as started; this bounds how much later it does. The engine tells the worker of a dispatched
 * activity attempt to stop whether or not it was claimed, so an activity running unclaimed still
 * hears of its cancellation.
 */
export const CLAIM_DEFER_MS = 200;

/** A claim waiting for its delay. */
export interface DeferredClaim {
  /** Sends the claim now if it is neither sent nor made needless by the answer. */
  now(): void;
  /** The answer is being written (it implies the claim): a claim not sent yet is not sent at all. */
  drop(): void;
  /**
   * Takes the claim over from the delay: true when it was neither sent nor made needless by the
   * answer (the caller sends it its own way now), false otherwise. The delay sends nothing after.
   */
  take(): boolean;
}

/**
 * Calls `send` (the claim's write) once `delayMs` have passed, unless `answered` aborts first, or
 * the caller sends it earlier ({@link DeferredClaim.now}), takes it over or drops it. Sends at most
 * once; a claim already sent is not stopped (its write retries until `answered` aborts).
 */
export function claimUnlessAnsweredWithin(delayMs: number, answered: AbortSignal, send: () => Promise<unknown>): DeferredClaim {
  let pending = !answered.aborted;
  const fire = () => {
    if (!pending) return;
    pending = false;
    clearTimeout(timer);
    answered.removeEventListener('abort', cancel);
    void send().catch(() => undefined);
  };
  const cancel = () => {
    pending = false;
    clearTimeout(timer);
  };
  const timer = pending ? setTimeout(fire, delayMs) : undefined;
  if (pending) answered.addEventListener('abort', cancel, { once: true });
  const take = () => {
    if (!pending) return false;
    cancel();
    answered.removeEventListener('abort', cancel);
    return true;
  };
  return { now: fire, drop: cancel, take };
}
