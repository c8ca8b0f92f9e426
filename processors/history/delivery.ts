/**
 * How a new event reaches the workflow: appended and answered with a workflow task when none is in
 * flight, buffered (ids assigned later) while one is, and flushed when that task ends.
 * @module
 */
import type { HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import { appendEvent, type Ctx } from './context.js';
import { awaitingStartDelay, scheduleWorkflowTask, workflowTaskInFlight } from './workflow-task-schedule.js';

/**
 * Delivers events that need the workflow's attention, in order: buffered behind the in-flight
 * workflow task, else appended followed by a new workflow task (none while a start delay runs:
 * the first task will see them).
 */
export function deliver(ctx: Ctx, events: readonly HistoryEventAttributes[]): void {
  const state = ctx.state;
  if (workflowTaskInFlight(state)) {
    for (const attributes of events) state.bufferedEvents.push({ eventTime: ctx.now, attributes });
    return;
  }
  for (const attributes of events) appendEvent(ctx, attributes);
  if (!awaitingStartDelay(state)) scheduleWorkflowTask(ctx, 1);
}

/** Appends the buffered events in arrival order; true if there were any. */
export function flushBuffered(ctx: Ctx): boolean {
  const buffered = ctx.state.bufferedEvents;
  if (buffered.length === 0) return false;
  ctx.state.bufferedEvents = [];
  for (const event of buffered) appendEvent(ctx, event.attributes, event.eventTime);
  return true;
}

/** True when `count` more events would overflow the buffer of the in-flight workflow task. */
export function bufferWouldOverflow(ctx: Ctx, count: number): boolean {
  return workflowTaskInFlight(ctx.state) && ctx.state.bufferedEvents.length + count > ctx.config.maxBufferedEvents;
}
