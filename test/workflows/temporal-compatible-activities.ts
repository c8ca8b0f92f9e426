/** Activities of the Temporal-compatible workflows (`temporal-compatible.ts`). */
import { EventEmitter } from 'node:events';
import { activityInfo, CompleteAsyncError, Context, heartbeat, log } from 'logbook/activity';
import { ApplicationFailure } from 'logbook/common';

/** Charges a card; the card `declined` fails for good with type `CardDeclined` and the card as detail. */
export async function chargeCard(card: string): Promise<string> {
  if (card === 'declined') throw ApplicationFailure.nonRetryable(`card ${card} was declined`, 'CardDeclined', { card });
  return `charged ${card}`;
}

/** Heartbeats, logs a warning and answers what it reads of itself through `activityInfo()`. */
export async function describeActivity(): Promise<Record<string, unknown>> {
  const info = activityInfo();
  heartbeat('halfway');
  log.warn('described', { custom: true });
  return {
    workflowExecution: info.workflowExecution,
    activityType: info.activityType,
    attempt: info.attempt,
    isLocal: info.isLocal,
    startToCloseTimeoutMs: info.startToCloseTimeoutMs,
    scheduledBeforeStart: info.scheduledTimestampMs <= info.startedTimestampMs,
    sameAsContext: Context.current().info === info,
    heartbeatTimeoutMs: info.heartbeatTimeoutMs ?? null,
  };
}

/** Where {@link awaitApproval} announces each attempt it leaves to someone else: `token` events of `{ orderId, activityId, taskToken }`. */
export const asyncApprovals = new EventEmitter();

/** Leaves the approval to someone else: announces its task token and throws `CompleteAsyncError`. */
export async function awaitApproval(orderId: string): Promise<string> {
  const { activityId, base64TaskToken } = activityInfo();
  asyncApprovals.emit('token', { orderId, activityId, taskToken: base64TaskToken });
  throw new CompleteAsyncError();
}
