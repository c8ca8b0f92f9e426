import { condition, defineSignal, setHandler, sideEffect, uuid4 } from '../../sdk/workflow/index.js';

export const go = defineSignal('go');

/** Records a token with `sideEffect`, waits for `go`, returns the token. */
export async function tokenAfterSignal(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const token = sideEffect(() => `token-${uuid4()}`);
  await condition(() => released);
  return token;
}
