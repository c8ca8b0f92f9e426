/**
 * Durable timers started by workflow code. A timer fires when shard time reaches its expiry —
 * never before, once — unless the workflow cancels it first.
 * @module
 */
import type { PendingTimerInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { deliver } from './delivery.js';

/** StartTimer: writes TimerStarted and arms the timer at now + duration. */
export function startTimer(ctx: Ctx, timerId: string, durationMs: number, workflowTaskCompletedEventId: number): void {
  const started = appendEvent(ctx, { type: 'TimerStarted', timerId, startToFireTimeoutMs: durationMs, workflowTaskCompletedEventId });
  ctx.state.pendingTimers.push({ timerId, startedEventId: started.eventId, expiryTime: ctx.now + durationMs });
}

/** The id of the TimerStarted event of a fired timer whose TimerFired is still buffered. */
function bufferedFiring(ctx: Ctx, timerId: string): number | null {
  for (const event of ctx.state.bufferedEvents) {
    if (event.attributes.type === 'TimerFired' && event.attributes.timerId === timerId) return event.attributes.startedEventId;
  }
  return null;
}

/**
 * CancelTimer: writes TimerCanceled. A timer that fired while the workflow task ran is still
 * cancelable (Temporal): its buffered TimerFired is dropped, the workflow never sees it.
 */
export function cancelTimer(ctx: Ctx, timerId: string, workflowTaskCompletedEventId: number, identity: string): void {
  const state = ctx.state;
  const pending = state.pendingTimers.find((t) => t.timerId === timerId);
  let startedEventId: number;
  if (pending) {
    startedEventId = pending.startedEventId;
    state.pendingTimers = state.pendingTimers.filter((t) => t !== pending);
  } else {
    const fired = bufferedFiring(ctx, timerId);
    if (fired === null) throw new Error(`CancelTimer ${timerId} was validated but the timer is unknown`);
    startedEventId = fired;
    state.bufferedEvents = state.bufferedEvents.filter((e) => !(e.attributes.type === 'TimerFired' && e.attributes.timerId === timerId));
  }
  appendEvent(ctx, { type: 'TimerCanceled', timerId, startedEventId, workflowTaskCompletedEventId, identity });
}

/** The timer's expiry came: TimerFired, delivered to the workflow. */
export function fireTimer(ctx: Ctx, timer: PendingTimerInfo): void {
  ctx.state.pendingTimers = ctx.state.pendingTimers.filter((t) => t.startedEventId !== timer.startedEventId);
  deliver(ctx, [{ type: 'TimerFired', timerId: timer.timerId, startedEventId: timer.startedEventId }]);
}
