import { test } from 'node:test';
import assert from 'node:assert/strict';
import { murmur2, partitionForKey } from './partitioner.js';

// Vectors from Apache Kafka's UtilsTest.testMurmur2, which pins the Java client's hash.
const javaVectors: ReadonlyArray<[string, number]> = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
];

test('murmur2 matches the Java client hash for the Kafka test vectors', () => {
  for (const [input, expected] of javaVectors) {
    assert.equal(murmur2(Buffer.from(input)), expected, input);
  }
});

test('partitionForKey is the positive hash modulo the partition count', () => {
  assert.equal(partitionForKey('21', 8), (-973932308 & 0x7fffffff) % 8);
  for (let i = 0; i < 200; i++) {
    const p = partitionForKey(`default/wf-${i}`, 16);
    assert.ok(p >= 0 && p < 16);
  }
});

test('partitionForKey rejects a non-positive partition count', () => {
  assert.throws(() => partitionForKey('a', 0), /positive integer/);
});
