/**
 * A workflow whose one activity waits at a gate the test opens, so a test can hold an attempt
 * running on one worker while the task is delivered to another.
 * @module
 */
import { proxyActivities } from '../../sdk/workflow/index.js';

/** The activities of the gated queue (implemented by the test that opens the gate). */
export interface GatedActivities {
  passGate(name: string): Promise<string>;
}

const { passGate } = proxyActivities<GatedActivities>({ startToCloseTimeout: '2m' });

/** Runs `passGate` once and returns what it returned. */
export async function gatedStep(name: string): Promise<string> {
  return passGate(name);
}
