/**
 * A workflow whose one activity counts slowly and heartbeats each step, so a test can kill the
 * worker running it and watch the next attempt resume from the last recorded heartbeat.
 * @module
 */
import { proxyActivities } from '../../sdk/workflow/index.js';

/** What an attempt of `countSlowly` did: where it resumed from and which steps it ran. */
export interface CountReport {
  attempt: number;
  /** The heartbeat details the attempt started from (null: from the beginning). */
  resumedFrom: number | null;
  ran: number[];
}

/** The activities of the `resume` task queue (implemented in `test/support/resumable-activities.ts`). */
export interface ResumableActivities {
  countSlowly(steps: number, stepMs: number): Promise<CountReport>;
}

// A dead worker stops heartbeating: after 2 s the engine retries the activity on another worker.
const { countSlowly } = proxyActivities<ResumableActivities>({ startToCloseTimeout: '2m', heartbeatTimeout: '2s', retry: { initialInterval: '200ms' } });

/** Counts to `steps`, `stepMs` per step, in one resumable activity; returns the last attempt's report. */
export async function resumableCount(steps: number, stepMs: number): Promise<CountReport> {
  return countSlowly(steps, stepMs);
}
