/**
 * Worker inputs about activity attempts: claim, heartbeat, completion, failure and cancellation
 * acknowledgement. Each must name the current attempt (scheduled event id and attempt) of a
 * pending activity that was sent; anything else is stale (a superseded attempt, a closed activity).
 * @module
 */
import type { CommandBodyOf } from '../../topics/schemas/command/index.js';
import type { PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { reject, type Ctx } from './context.js';
import { acknowledgeActivityInput, answerClaim, claimIdOf, mayClaim } from './claims.js';
import { claimActivity, endActivity, failAttempt } from './activity-lifecycle.js';
import { awaitingBackoff, cancelActivityIntentOf, findActivity } from './activity-tasks.js';
import { oversizedActivityOutput } from './payload-limits.js';
import { plaintextActivityOutput } from './codec-required.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import { RejectionCode } from './transition.js';

type ActivityInput = CommandBodyOf<
  'ActivityTaskStarted' | 'ActivityTaskHeartbeat' | 'ActivityTaskCompleted' | 'ActivityTaskFailed' | 'ActivityTaskCanceled'
>;

/** The activity whose current, sent attempt the input names; otherwise rejects it as stale. */
function currentAttempt(ctx: Ctx, body: ActivityInput): PendingActivityInfo | null {
  const activity = findActivity(ctx.state, body.scheduledEventId);
  if (!activity || activity.attempt !== body.attempt || awaitingBackoff(ctx.state, activity)) {
    const now = activity ? `its current attempt is ${activity.attempt}` : 'it is not pending';
    reject(ctx, RejectionCode.StaleActivityResult,
      `${body.type} for activity ${body.scheduledEventId} attempt ${body.attempt} ignored: ${now}`);
    return null;
  }
  return activity;
}

/** A heartbeat or result of an unclaimed attempt implies its claim (the claim was lost or comes later). */
function claimIfNeeded(ctx: Ctx, activity: PendingActivityInfo, identity: string): void {
  if (activity.startedTime === null) claimActivity(ctx, activity, identity, claimIdOf(ctx));
}

/**
 * ActivityTaskStarted (the claim): arms start-to-close and heartbeat. One attempt has one holder
 * (`claims.ts`): the holder's repeated claim changes nothing, another claim is refused.
 */
export function activityTaskStarted(ctx: Ctx, body: CommandBodyOf<'ActivityTaskStarted'>): void {
  const activity = currentAttempt(ctx, body);
  if (!activity) return;
  const what = `activity ${activity.scheduledEventId} attempt ${activity.attempt}`;
  if (!mayClaim(ctx, activity, RejectionCode.StaleActivityClaim, what)) return;
  claimActivity(ctx, activity, body.identity, claimIdOf(ctx));
  answerClaim(ctx);
  // Asked to cancel while unclaimed: this worker may have taken the task after the request went out.
  if (activity.cancelRequested) ctx.tasks.push(cancelActivityIntentOf(ctx.state, activity, 'cancel requested by the workflow'));
}

/**
 * The failure that replaces an activity output the engine refuses: over the payload limit, or
 * plaintext for a codec-required task queue (`codec-required.ts`); null when it is accepted.
 */
function outputRefusal(ctx: Ctx, activity: PendingActivityInfo, what: string, value: unknown): Failure | null {
  return oversizedActivityOutput(ctx, what, value) ?? plaintextActivityOutput(ctx, activity, what, value);
}

/** Ends the attempt with `failure` (retried per the policy; the payload-limit failures are non-retryable). */
function failWith(ctx: Ctx, activity: PendingActivityInfo, failure: Failure, identity: string): void {
  failAttempt(ctx, activity, failure, (retryState, startedEventId) => ({
    type: 'ActivityTaskFailed', failure, scheduledEventId: activity.scheduledEventId,
    startedEventId: startedEventId ?? 0, identity, retryState,
  }));
}

/**
 * ActivityTaskHeartbeat: moves the heartbeat deadline and keeps the details for the next attempt.
 * An activity asked to cancel is told again (Temporal answers a heartbeat with the cancellation),
 * so a worker that missed the control record still learns of it.
 */
export function activityTaskHeartbeat(ctx: Ctx, body: CommandBodyOf<'ActivityTaskHeartbeat'>): void {
  const activity = currentAttempt(ctx, body);
  if (!activity) return;
  acknowledgeActivityInput(ctx);
  claimIfNeeded(ctx, activity, body.identity);
  const refused = outputRefusal(ctx, activity, 'the heartbeat details', { details: body.details });
  if (refused) return failWith(ctx, activity, refused, body.identity);
  activity.lastHeartbeatTime = ctx.now;
  activity.lastHeartbeatDetails = body.details;
  if (activity.cancelRequested) ctx.tasks.push(cancelActivityIntentOf(ctx.state, activity, 'cancel requested by the workflow'));
}

/** ActivityTaskCompleted: the first result of the attempt wins; a result over the payload limit, or plaintext for a codec-required queue, fails the activity. */
export function activityTaskCompleted(ctx: Ctx, body: CommandBodyOf<'ActivityTaskCompleted'>): void {
  const activity = currentAttempt(ctx, body);
  if (!activity) return;
  acknowledgeActivityInput(ctx);
  claimIfNeeded(ctx, activity, body.identity);
  const refused = outputRefusal(ctx, activity, 'the activity result', { result: body.result });
  if (refused) return failWith(ctx, activity, refused, body.identity);
  endActivity(ctx, activity, (startedEventId) => ({
    type: 'ActivityTaskCompleted', result: body.result, scheduledEventId: activity.scheduledEventId,
    startedEventId: startedEventId ?? 0, identity: body.identity,
  }));
}

/** ActivityTaskFailed: retried per the policy, or closes the activity; a failure over the payload limit is replaced, not retried. */
export function activityTaskFailed(ctx: Ctx, body: CommandBodyOf<'ActivityTaskFailed'>): void {
  const activity = currentAttempt(ctx, body);
  if (!activity) return;
  acknowledgeActivityInput(ctx);
  claimIfNeeded(ctx, activity, body.identity);
  const refused = outputRefusal(ctx, activity, 'the activity failure', { failure: body.failure, lastHeartbeatDetails: body.lastHeartbeatDetails });
  if (refused) return failWith(ctx, activity, refused, body.identity);
  if (body.lastHeartbeatDetails !== null) activity.lastHeartbeatDetails = body.lastHeartbeatDetails;
  failWith(ctx, activity, body.failure, body.identity);
}

/** ActivityTaskCanceled: the worker stopped the attempt after a cancellation request. */
export function activityTaskCanceled(ctx: Ctx, body: CommandBodyOf<'ActivityTaskCanceled'>): void {
  const activity = currentAttempt(ctx, body);
  if (!activity) return;
  if (!activity.cancelRequested || activity.cancelRequestedEventId === null) {
    reject(ctx, RejectionCode.ActivityNotCancelRequested, `activity ${activity.scheduledEventId} was not asked to cancel`);
    return;
  }
  const latestCancelRequestedEventId = activity.cancelRequestedEventId;
  acknowledgeActivityInput(ctx);
  claimIfNeeded(ctx, activity, body.identity);
  const refused = plaintextActivityOutput(ctx, activity, 'the cancellation details', { details: body.details });
  if (refused) return failWith(ctx, activity, refused, body.identity);
  endActivity(ctx, activity, (startedEventId) => ({
    type: 'ActivityTaskCanceled', details: body.details, latestCancelRequestedEventId,
    scheduledEventId: activity.scheduledEventId, startedEventId, identity: body.identity,
  }));
}
