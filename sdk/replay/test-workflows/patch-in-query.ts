import { condition, defineQuery, defineSignal, patched, setHandler } from '../../workflow/index.js';

export const usesPatch = defineQuery<boolean>('usesPatch');
export const go = defineSignal('go');

/** Asks `patched` from a query handler while waiting for `go`, then from the workflow itself. */
export async function queriedPatch(): Promise<boolean> {
  let released = false;
  setHandler(go, () => void (released = true));
  setHandler(usesPatch, () => patched('query-patch'));
  await condition(() => released);
  return patched('query-patch');
}
