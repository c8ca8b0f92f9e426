/**
 * How long a workflow worker waits before it claims a workflow task it received for the first
 * time. A task answered sooner sends no claim at all — the engine takes the completion as the claim
 * too — so a workflow task costs one command and one shard input instead of two. The claim arms
 * the engine's start-to-close timer and shows the task as started; this bounds how much later it does.
 * Activities are claimed at once: the engine cancels an unclaimed attempt without telling a
 * worker, so an activity running unclaimed would not hear of its cancellation.
 */
export const CLAIM_DEFER_MS = 200;

/**
 * Calls `send` (the claim's write) once `delayMs` have passed, unless `answered` aborts first.
 */
export function claimUnlessAnsweredWithin(delayMs: number, answered: AbortSignal, send: () => Promise<unknown>): void {
  if (answered.aborted) return;
  const fire = () => {
    answered.removeEventListener('abort', cancel);
    void send().catch(() => undefined);
  };
  const timer = setTimeout(fire, delayMs);
  const cancel = () => clearTimeout(timer);
  answered.addEventListener('abort', cancel, { once: true });
}
