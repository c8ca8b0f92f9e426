/**
 * One deadlock watchdog for the workflow activations a worker has ready at once.
 *
 * `node:vm` bounds a call by starting a watchdog thread (with its own event loop) for it and
 * joining it afterwards: about 100 µs of CPU per bounded call, more than a cached activation of a
 * short workflow costs itself. A worker's consumer hands it tasks in batches, so the activations
 * that become ready in one turn of the event loop are queued here and run, one after the other,
 * inside a single bounded call; the sandbox calls inside it run unbounded, since the watchdog of the
 * enclosing call interrupts whatever runs on the isolate. A slice ends once it has run for
 * `sliceMs` (at most a tenth of the deadlock timeout), and its bound is the deadlock timeout plus
 * that slice, so every step (a workflow task, or the short replay its caller put in one step)
 * still gets at least the full deadlock timeout.
 *
 * When the bound fires, the running activation's sandbox call has said what to blame (see
 * {@link blameDeadlockOn}): its run fails with that error (a DeadlockError, its context given up,
 * as with a call of its own). Activations that ran before it in the slice are done; those after it
 * run in the next slice. Host-side only; never imported by workflow code.
 * @module
 */
import vm from 'node:vm';

interface Queued {
  readonly step: () => unknown;
  readonly timeoutMs: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The slice being run: what it runs now, and what a deadlock of it is. */
interface Slice {
  readonly timeoutMs: number;
  readonly sliceMs: number;
  readonly startedAt: number;
  current: Queued | undefined;
  blame: (() => Error) | undefined;
}

/** The longest a slice goes on starting activations, ms. */
const MAX_SLICE_MS = 10;

const queue: Queued[] = [];
let drainScheduled = false;
let slice: Slice | undefined;

/** How many bounded calls the batches made (tests read it). */
export const sharedWatchdogCalls = { count: 0 };

// The bounded call enters a context of its own and calls straight back into the host.
const driver = vm.createContext({ runSlice: () => runQueued() }, { name: 'logbook activation watchdog' });
const driveScript = new vm.Script('runSlice()', { filename: 'logbook:activation-batch' });

/** True inside a batch: a sandbox call is under the batch's watchdog and must not start its own. */
export function underSharedWatchdog(): boolean {
  return slice !== undefined;
}

/**
 * Said by a sandbox call about to run workflow code inside a batch: if the watchdog fires before
 * the next such call, `deadlock` makes the error the activation fails with (and gives up its context).
 */
export function blameDeadlockOn(deadlock: () => Error): void {
  if (slice) slice.blame = deadlock;
}

/**
 * Runs `step` (synchronous sandbox work: applying events, running an activation) with the other
 * steps queued in this turn of the event loop, under one watchdog of `timeoutMs` per step.
 * Resolves with its value, or rejects with what it threw or with its deadlock error.
 */
export function withSharedWatchdog<T>(timeoutMs: number, step: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ step, timeoutMs, resolve: resolve as (value: unknown) => void, reject });
    scheduleDrain();
  });
}

function scheduleDrain(): void {
  if (drainScheduled) return;
  drainScheduled = true;
  // After the current turn's I/O callbacks and their promise jobs: the rest of a batch of tasks queues first.
  setImmediate(drain);
}

/** One slice per turn, so that a long queue leaves the event loop room between slices. */
function drain(): void {
  drainScheduled = false;
  const first = queue[0];
  if (!first) return;
  const running: Slice = {
    timeoutMs: first.timeoutMs,
    sliceMs: Math.min(MAX_SLICE_MS, first.timeoutMs / 10),
    startedAt: performance.now(),
    current: undefined,
    blame: undefined,
  };
  slice = running;
  sharedWatchdogCalls.count++;
  try {
    driveScript.runInContext(driver, { timeout: Math.ceil(running.timeoutMs + running.sliceMs) });
  } catch (error) {
    // Only the watchdog's interruption gets here: each step's own errors are caught in runQueued.
    const interrupted = running.current;
    if (interrupted) interrupted.reject(running.blame?.() ?? error);
  } finally {
    slice = undefined;
  }
  if (queue.length > 0) scheduleDrain();
}

/** Runs queued steps with the slice's timeout until the queue is empty or the slice has run long enough. */
function runQueued(): void {
  const running = slice!;
  let ran = 0;
  while (queue.length > 0) {
    const next = queue[0]!;
    if (next.timeoutMs !== running.timeoutMs) break;
    if (ran > 0 && performance.now() - running.startedAt >= running.sliceMs) break;
    queue.shift();
    running.current = next;
    running.blame = undefined;
    try {
      next.resolve(next.step());
    } catch (error) {
      next.reject(error);
    }
    running.current = undefined;
    ran++;
  }
}
