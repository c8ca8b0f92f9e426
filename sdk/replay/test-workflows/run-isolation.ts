import { sleep, workflowInfo } from '../../workflow/index.js';

/** Module state: each run evaluates the bundle afresh, so each run counts from zero. */
let starts = 0;

type Globals = Record<string, unknown>;

/**
 * Records what a run sees of module state and of a global another run assigned, sleeps (so runs
 * interleave in one context), and returns that with a random draw and the time after the sleep.
 */
export async function isolationProbe(): Promise<Record<string, unknown>> {
  starts++;
  const globals = globalThis as unknown as Globals;
  const seenBeforeAssigning = globals.assignedByARun;
  globals.assignedByARun = workflowInfo().workflowId;
  await sleep(1_000);
  return { starts, seenBeforeAssigning, seenAfterSleep: globals.assignedByARun, random: Math.random(), now: Date.now() };
}

/** Never yields: the deadlock detector interrupts it. */
export async function spins(): Promise<void> {
  for (;;);
}
