import { condition, defineSignal, setHandler, sideEffect } from '../../sdk/workflow/index.js';

export const go = defineSignal('go');

/** `tokenAfterSignal` after a deploy that changed how the token is made: replayed runs keep their recorded token. */
export async function tokenAfterSignal(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const token = sideEffect(() => 'token-made-by-the-new-code');
  await condition(() => released);
  return token;
}
