import { sideEffect, sleep, uuid4 } from '../../workflow/index.js';

/** Draws a token once (recorded), sleeps, returns it. */
export async function recordedToken(): Promise<string> {
  const token = sideEffect(() => `token-${uuid4()}`);
  await sleep('1s');
  return token;
}
