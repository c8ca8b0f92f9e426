import { RecordTooLargeError } from '../../topics/errors.js';
import { EncodeError } from '../../topics/serde/index.js';
import { TaskHandedBackError } from './task-handed-back-error.js';

/** First pause after a failed write; it doubles per failure up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/** True for a write that fails the same way every time: the record is too large or does not fit its schema. */
export function isPermanentWriteError(error: unknown): boolean {
  return error instanceof RecordTooLargeError || error instanceof EncodeError;
}

/**
 * Runs `write` until it succeeds, pausing 100 ms, 200 ms, … up to 2 s between tries, for as long
 * as `signal` is not aborted (the task's partition is still this worker's). A write that can never
 * succeed ({@link isPermanentWriteError}) is thrown at once, for the caller to answer otherwise.
 * Once `signal` aborts with the write still failing it throws {@link TaskHandedBackError}: the
 * engine has not heard of the task, which must stay unfinished for the partition's next owner.
 * The first try is always made, even after an abort, so a result finished late is still sent.
 *
 * @example
 * await writeWithRetry(() => commands.write(run, completion, null, requestId), taken, 'the completion');
 */
export async function writeWithRetry(write: () => Promise<void>, signal: AbortSignal, what: string): Promise<void> {
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      return await write();
    } catch (error) {
      if (isPermanentWriteError(error)) throw error;
      if (signal.aborted) throw new TaskHandedBackError(`${what} could not be written before the task was handed back`, error);
      await pauseFor(pause, signal);
      if (signal.aborted) throw new TaskHandedBackError(`${what} could not be written before the task was handed back`, error);
    }
  }
}

/** Waits `ms`, or less if `signal` aborts first. */
function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
