/**
 * The rule every claim (`WorkflowTaskStarted`, `ActivityTaskStarted` commands) follows: one attempt
 * has one holder. A claim is known by its command's request id — a worker that writes one claim
 * again (a retried write) repeats the id, while another delivery of the same task (a redelivery
 * after a rebalance, a second worker, another HTTP poller) sends a new one. The first claim of an
 * attempt holds it; the holder's claim again is accepted and changes nothing; any other claim is
 * refused with a `Stale…` code, which tells a worker waiting for the answer not to run the task.
 * The request id, not the worker's identity, names the holder: two workers may share an identity
 * (a user-chosen name, two workers in one process), and one worker may receive the same task twice.
 * @module
 */
import type { Ctx } from './context.js';
import { reject } from './context.js';

/** What a claim needs to know of the attempt it names. */
export interface ClaimedAttempt {
  readonly startedTime: number | null;
  readonly startedIdentity: string | null;
  readonly startedRequestId: string | null;
}

/** The id of the claim being applied: its command's request id. */
export function claimIdOf(ctx: Ctx): string {
  return ctx.command?.requestId ?? '';
}

/**
 * True when the claim being applied may record the attempt's start: nobody holds it yet. Answers
 * the holder's repeated claim (Accepted, when it asked for an answer) and refuses anyone else's
 * with `code`; both return false.
 */
export function mayClaim(ctx: Ctx, attempt: ClaimedAttempt, code: string, what: string): boolean {
  if (attempt.startedTime === null) return true;
  if (attempt.startedRequestId === claimIdOf(ctx)) {
    answerClaim(ctx);
    return false;
  }
  const holder = attempt.startedIdentity ? `worker '${attempt.startedIdentity}'` : 'another worker';
  reject(ctx, code, `claim of ${what} refused: ${holder} holds it since ${new Date(attempt.startedTime).toISOString()} (claim ${attempt.startedRequestId})`);
  return false;
}

/** Tells a claimer that asked (a redelivered task, an HTTP poller) that it holds the attempt. */
export function answerClaim(ctx: Ctx): void {
  const replyTo = ctx.command?.replyTo;
  if (!replyTo) return;
  ctx.replies.push({ requestId: replyTo.requestId, kind: 'Accepted', runId: ctx.state.executionInfo.runId, payload: null, failure: null, executionStatus: null });
}

/**
 * Tells a caller that waits for it (an async completion through the gateway) that its activity
 * input was taken. Workers do not wait for their results, so they get no reply.
 */
export function acknowledgeActivityInput(ctx: Ctx): void {
  const replyTo = ctx.command?.replyTo;
  if (!replyTo || ctx.replies.some((r) => r.requestId === replyTo.requestId)) return;
  answerClaim(ctx);
}
