/** A workflow that logs before and after a timer (for the replay-aware `log` tests). */
import { log, sleep } from '../../workflow/index.js';

/** Logs, sleeps a second, logs again. */
export async function loggingTwice(): Promise<void> {
  log.info('before the timer', { step: 1 });
  await sleep(1_000);
  log.warn('after the timer');
}
