/**
 * The activity of `test/workflows/heartbeat-resume.ts`: counts with a heartbeat per step and
 * resumes from `Context.current().info.heartbeatDetails` when an earlier attempt died.
 * @module
 */
import { Context } from '../../sdk/worker/activity-context.js';
import type { CountReport } from '../workflows/heartbeat-resume.js';

/** Counts to `steps`, waiting `stepMs` before each, heartbeating the step reached. */
export async function countSlowly(steps: number, stepMs: number): Promise<CountReport> {
  const { info, heartbeat, sleep } = Context.current();
  const resumedFrom = typeof info.heartbeatDetails === 'number' ? info.heartbeatDetails : null;
  const ran: number[] = [];
  for (let step = (resumedFrom ?? 0) + 1; step <= steps; step++) {
    await sleep(stepMs);
    ran.push(step);
    heartbeat(step);
  }
  return { attempt: info.attempt, resumedFrom, ran };
}
