import { sleep } from '../../sdk/workflow/index.js';

/** Sleeps `ms` on a durable timer, then returns when it woke (workflow time). */
export async function sleeper(ms: number): Promise<{ sleptMs: number }> {
  const before = Date.now();
  await sleep(ms);
  return { sleptMs: Date.now() - before };
}
