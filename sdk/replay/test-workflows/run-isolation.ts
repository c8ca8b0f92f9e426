import { ActivityCancellationType, ApplicationFailure, proxyActivities, sleep, workflowInfo } from '../../workflow/index.js';

/** Module state: each run evaluates the user's modules afresh, so each run counts from zero. */
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

const hiddenKey = 'hiddenByARun';
const symbolKey = Symbol.for('logbook.test.symbolByARun');

/**
 * Like {@link isolationProbe}, for the globals a run can define that `Object.keys` does not list (a
 * non-enumerable property and a symbol-keyed one) and for a global the runtime installed
 * (`setTimeout`) and a built-in (`escape`), which the run replaces.
 */
export async function hiddenGlobalsProbe(): Promise<Record<string, unknown>> {
  const globals = globalThis as unknown as Record<string | symbol, unknown>;
  const seenBefore = { hidden: String(globals[hiddenKey]), symbol: String(globals[symbolKey]), setTimeout: typeof globals.setTimeout, escape: typeof globals.escape };
  const id = workflowInfo().workflowId;
  Object.defineProperty(globalThis, hiddenKey, { value: id, enumerable: false, configurable: true, writable: true });
  globals[symbolKey] = id;
  globals.setTimeout = id;
  globals.escape = id;
  await sleep(1_000);
  const seenAfterSleep = { hidden: globals[hiddenKey], symbol: globals[symbolKey], setTimeout: globals.setTimeout, escape: globals.escape };
  return { seenBefore, seenAfterSleep };
}

/** Defines a global that cannot be deleted (non-configurable), then sleeps; returns what it saw before. */
export async function nonConfigurableGlobalProbe(): Promise<string> {
  const before = typeof (globalThis as unknown as Record<string, unknown>).pinnedByARun;
  Object.defineProperty(globalThis, 'pinnedByARun', { value: workflowInfo().workflowId });
  await sleep(1_000);
  return before;
}

/**
 * The workflow API's modules are evaluated once per context and shared by its runs: tries to change
 * an exported object and an exported function for everyone, sleeps, and returns what it then sees.
 */
export async function sharedApiProbe(): Promise<Record<string, unknown>> {
  const id = workflowInfo().workflowId;
  const marked = (target: object) => String((target as Record<string, unknown>).markedByARun);
  const seen = () => ({
    abandon: ActivityCancellationType.ABANDON,
    marker: marked(proxyActivities),
    prototype: marked(ApplicationFailure.prototype),
    instance: marked(ApplicationFailure.create({ message: 'probe' })),
  });
  const seenBefore = seen();
  for (const change of [
    () => ((ActivityCancellationType as Record<string, string>).ABANDON = id),
    () => ((proxyActivities as unknown as Record<string, unknown>).markedByARun = id),
    () => ((ApplicationFailure.prototype as unknown as Record<string, unknown>).markedByARun = id),
  ]) {
    try {
      change();
    } catch {
      // Frozen: strict-mode code is told so; either way the change does not happen.
    }
  }
  await sleep(1_000);
  return { seenBefore, seenAfterSleep: seen() };
}
