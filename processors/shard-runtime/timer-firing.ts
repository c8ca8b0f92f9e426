import type { LogRecord } from '../../topics/log/log.js';
import { applyTimer } from '../history/index.js';
import type { BatchWork } from './batch-work.js';
import { InputFailure, InputStep, inStep } from './input-steps.js';
import type { TimerEntry } from './store-layout.js';
import { transitionRecords } from './transition-records.js';

/**
 * Fires one due timer, isolated like an input: a timer whose transition fails a step is set idle
 * (skipped until its workflow's state changes, so it cannot become a busy loop) and reported as a
 * dead letter naming the workflow and the timer, since it has no source record of its own.
 */
export async function fireTimer(work: BatchWork, entry: TimerEntry): Promise<void> {
  const current = await work.stateOf(entry.workflowKey);
  if (!current) return;
  const now = Math.max(work.ctx.clock(), current.executionInfo.lastEventTime);
  try {
    const transition = await inStep(InputStep.timer, () => applyTimer(current, entry.timer, now, work.ctx.history));
    if (!transition.changed && transition.events.length === 0) {
      work.idleTimers.push(entry);
      return;
    }
    const prepared = await transitionRecords(work, entry.workflowKey, current, transition);
    work.keep(entry.workflowKey, transition.state, transition.changed, transition.events, prepared);
    work.timersFired++;
    work.timerLatenessMs.push(now - entry.timer.fireTime);
  } catch (error) {
    if (!(error instanceof InputFailure)) throw error;
    work.idleTimers.push(entry);
    work.deadLetter(timerRecord(work, entry), { code: error.code, reason: error.message, step: error.step });
  }
}

/** A stand-in source record for a timer's dead letter: the workflow key, and the timer as JSON. */
function timerRecord(work: BatchWork, entry: TimerEntry): LogRecord {
  return {
    topic: `${work.ctx.catalog.state}#timers`,
    partition: work.ctx.shard,
    offset: -1,
    key: Buffer.from(entry.workflowKey),
    value: Buffer.from(JSON.stringify(entry.timer)),
    headers: {},
    timestamp: entry.timer.fireTime,
  };
}
