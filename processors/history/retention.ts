/**
 * Retention: a closed run is kept for its namespace's retention after it closed, then deleted.
 * Like every deadline, the retention timer is derived from the state ({@link retentionTimersOf});
 * firing it ({@link expireRun}) turns the state into a purge — the processor writes the
 * tombstones (state, visibility rows and history of the workflow id; see `shard-batch.ts`).
 *
 * Kept apart from `timersOf` so the machine's other deadlines (and the kits that drive them) do
 * not change: the processor indexes both.
 * @module
 */
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { retentionFor, type HistoryConfig } from './config.js';
import type { TimerRef } from './timer-ref.js';
import type { Transition } from './transition.js';

/** The retention deadline of a closed run (none while it runs). Identity: the run id. */
export function retentionTimersOf(state: MutableStateSnapshot, config: HistoryConfig): TimerRef[] {
  const info = state.executionInfo;
  if (info.status === 'Running' || info.closeTime === null) return [];
  return [{ kind: 'Retention', fireTime: info.closeTime + retentionFor(config, info.namespace), identity: info.runId }];
}

/**
 * Fires a due retention timer: the run must still be the workflow's closed current run (a new
 * run of the same id replaces the state and so disarms it). The fire time is not compared with
 * the current retention: the retention in force when the run closed applies, as in Temporal, so
 * changing a namespace's retention later does not strand runs already indexed.
 */
export function expireRun(state: MutableStateSnapshot, timer: TimerRef, now: number): Transition | null {
  const info = state.executionInfo;
  if (timer.kind !== 'Retention' || timer.fireTime > now) return null;
  if (info.status === 'Running' || info.closeTime === null || info.runId !== timer.identity) return null;
  return {
    state: null,
    changed: true,
    events: [],
    tasks: [],
    commands: [],
    replies: [],
    visibility: null,
    closedRun: null,
    rejection: null,
    purgedRun: { namespace: info.namespace, workflowId: info.workflowId, runId: info.runId },
  };
}
