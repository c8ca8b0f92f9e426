import { sideEffect, sleep } from '../../workflow/index.js';

/** `recordedToken` with a function that must never run on replay: the recorded value is returned instead. */
export async function recordedToken(): Promise<string> {
  const token = sideEffect((): string => {
    throw new Error('the side effect ran again on replay');
  });
  await sleep('1s');
  return token;
}
