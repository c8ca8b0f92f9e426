import { condition, defineSignal, setHandler } from '../../sdk/workflow/index.js';

export const blob = defineSignal<[string]>('blob');

/** Waits for `count` blob signals and returns their lengths (the blobs themselves would make a huge result). */
export async function collectBlobs(count: number): Promise<number[]> {
  const lengths: number[] = [];
  setHandler(blob, (text) => {
    lengths.push(text.length);
  });
  await condition(() => lengths.length >= count);
  return lengths;
}
