/** Workflows that wait for days (for the time-skipping test environment), importing only `logbook/workflow`. */
import { ApplicationFailure, condition, defineSignal, setHandler, sleep, workflowInfo } from 'logbook/workflow';

const DAY_MS = 86_400_000;
export const wakeUp = defineSignal<[who: string]>('wakeUp');

/** What {@link sleepForDays} saw: on which day (since its start) the signal came and it ended. */
export interface Days {
  readonly signalledOnDay: number | null;
  readonly endedOnDay: number;
  readonly by: string | null;
}

/** Waits up to 30 days for `wakeUp`, then sleeps out the rest of the 30 days. */
export async function sleepForDays(): Promise<Days> {
  const start = Date.now();
  let by: string | null = null;
  setHandler(wakeUp, (who) => void (by = who));
  const signalled = await condition(() => by !== null, '30 days');
  const signalledOnDay = signalled ? (Date.now() - start) / DAY_MS : null;
  const rest = start + 30 * DAY_MS - Date.now();
  if (rest > 0) await sleep(rest);
  return { signalledOnDay, endedOnDay: (Date.now() - start) / DAY_MS, by };
}

/** Sleeps a day. */
export async function sleepADay(): Promise<string> {
  await sleep('1 day');
  return 'rested';
}

/** Fails its first attempt (to be retried after the retry policy's backoff), then answers its attempt. */
export async function failFirstAttempt(): Promise<number> {
  const { attempt } = workflowInfo();
  if (attempt === 1) throw ApplicationFailure.retryable('first attempt fails', 'FirstAttempt');
  return attempt;
}
