import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutgoingRecord } from '../log.js';
import { CoalescingSender } from './coalescing-sender.js';

const record = (n: number): OutgoingRecord => ({ topic: 't', partition: 0, key: String(n), value: null });

test('sends made while a request is in flight go out together, in call order, in the next request', async () => {
  const requests: string[][] = [];
  let release: () => void = () => undefined;
  const sender = new CoalescingSender(async (records) => {
    requests.push(records.map((r) => r.key as string));
    if (requests.length === 1) await new Promise<void>((r) => (release = r));
    return [{ topic: 't', partition: 0 }];
  });
  const first = sender.send([record(1)]);
  const rest = [sender.send([record(2)]), sender.send([record(3), record(4)])];
  release();
  await Promise.all([first, ...rest]);
  assert.deepEqual(requests, [['1'], ['2', '3', '4']]);
});

test('a failed request fails only the callers whose records it carried', async () => {
  let calls = 0;
  const sender = new CoalescingSender(async () => {
    calls++;
    if (calls === 1) throw new Error('broker said no');
    return [];
  });
  await assert.rejects(sender.send([record(1)]), /broker said no/);
  assert.deepEqual(await sender.send([record(2)]), []);
});

test('a request carries at most the configured number of records, but always at least one caller', async () => {
  const sizes: number[] = [];
  let release: () => void = () => undefined;
  const sender = new CoalescingSender(async (records) => {
    sizes.push(records.length);
    if (sizes.length === 1) await new Promise<void>((r) => (release = r));
    return [];
  }, 3);
  const sends = [sender.send([record(0)]), sender.send([record(1), record(2)]), sender.send([record(3), record(4)]), sender.send([record(5), record(6), record(7), record(8)])];
  release();
  await Promise.all(sends);
  assert.deepEqual(sizes, [1, 2, 2, 4]);
});
