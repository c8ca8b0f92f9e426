import assert from 'node:assert/strict';
import { test } from 'node:test';
import { faultWindow, SETTLE_MS, UNRECOVERED_MS, windowAt } from './fault-windows.js';
import { failureCause, isShardFailure, parseShardEventLine, summariseShardFailures, takeoverTimes, type ShardFailure } from './shard-failures.js';

test('both printed forms of a shard move parse: the test engine process and logbook dev', () => {
  const move = "shard 3: RUNNING → CORRUPTED (generation 2): a send failed — namespace 'a.b' may contain only letters";
  assert.deepEqual(parseShardEventLine(`SHARD 3 CORRUPTED ${move}`), { shard: 3, kind: 'corrupted', message: move });
  assert.deepEqual(parseShardEventLine('shard 5: RUNNING → MIGRATED (generation 4): fenced while held — fenced by a newer owner'), { shard: 5, kind: 'migrated', message: 'fenced while held — fenced by a newer owner' });
  assert.deepEqual(parseShardEventLine('SHARD 0 RUNNING shard 0: RESTORING → RUNNING (generation 1): restored')?.kind, 'running');
  assert.equal(parseShardEventLine('READY http://127.0.0.1:1'), undefined);
  assert.equal(parseShardEventLine('the SHARD 1 corrupted line quoted in another'), undefined);
});

test('ordinary lifecycle steps are not failures, CORRUPTED and MIGRATED are', () => {
  for (const kind of ['created', 'restoring', 'running', 'suspended', 'closed']) assert.equal(isShardFailure({ shard: 0, kind, message: '' }), false, kind);
  for (const kind of ['corrupted', 'migrated']) assert.equal(isShardFailure({ shard: 0, kind, message: '' }), true, kind);
});

test('a refused name or an oversized dead letter is an input failure even inside a fault window', () => {
  const windows = [{ kind: 'engine-kill' as const, target: 'engine-1', from: 0, to: 1_000 }];
  assert.equal(failureCause("namespace 'a.b' may contain only letters, digits, '_' and '-'", 500, windows), 'input');
  assert.equal(failureCause('The request included a message larger than the max message size the server will accept', 500, windows), 'input');
  assert.equal(failureCause('Maximum call stack size exceeded', 500, windows), 'input');
});

test('a Kafka error is a fault inside a kill window and unexplained outside it; a message like neither counts as input', () => {
  const windows = [{ kind: 'broker-kill' as const, target: 'broker-2', from: 1_000, to: 2_000 }];
  assert.equal(failureCause('KafkaJSProtocolError: fenced by a newer owner', 1_500, windows), 'fault');
  assert.equal(failureCause('Connection timeout', 5_000, windows), 'unexplained');
  assert.equal(failureCause('Consumer group was not initialized, consumer#run must be called first', 1_500, windows), 'fault');
  assert.equal(failureCause('something nobody foresaw', 1_500, windows), 'input');
});

test('a kill window lasts until the settle time after the later of restart and recovery, or a fixed stretch when the shards never came back', () => {
  assert.deepEqual(faultWindow({ kind: 'engine-kill', target: 'engine-1', killedAt: 100, restartedAt: 5_000, recoveredAt: 9_000 }), { kind: 'engine-kill', target: 'engine-1', from: 100, to: 9_000 + SETTLE_MS });
  assert.equal(faultWindow({ kind: 'engine-kill', target: 'engine-1', killedAt: 100, restartedAt: 5_000, recoveredAt: null }).to, 100 + UNRECOVERED_MS);
  assert.equal(faultWindow({ kind: 'broker-kill', target: 'broker-3', killedAt: 100, restartedAt: 20_000 }).to, 20_000 + SETTLE_MS);
  const windows = [faultWindow({ kind: 'broker-kill', target: 'broker-3', killedAt: 100, restartedAt: 200 })];
  assert.equal(windowAt(windows, 150)?.target, 'broker-3');
  assert.equal(windowAt(windows, 50), undefined);
});

test('a looping shard is one group with its count, first and last time, whatever offsets its messages carry', () => {
  const loop = (at: number, offset: number): ShardFailure => ({ node: 'engine-1', shard: 2, kind: 'corrupted', message: `dead letter of offset ${offset} is too large`, at });
  const failures = [loop(10, 1), loop(20, 2), loop(30, 3), { node: 'engine-2', shard: 4, kind: 'lost', message: 'fenced', at: 40 }];
  const summary = summariseShardFailures(failures, []);
  assert.equal(summary.total, 4);
  assert.deepEqual(summary.byCause, { input: 3, fault: 0, unexplained: 1 });
  assert.deepEqual(summary.byKind, { corrupted: 3, lost: 1 });
  assert.deepEqual(summary.shardsByCause, { input: [2], fault: [], unexplained: [4] });
  assert.equal(summary.groups.length, 2);
  assert.deepEqual(summary.groups[0], { node: 'engine-1', shard: 2, kind: 'corrupted', cause: 'input', message: 'dead letter of offset 1 is too large', count: 3, firstAt: 10, lastAt: 30 });
});

test('a takeover is timed from the kill to the shard\'s next move to RUNNING, on any node', () => {
  const started = (shard: number, at: number, node = 'engine-2') => ({ shard, kind: 'running', message: '', at, node });
  const events = [started(1, 50), started(1, 1_200), started(2, 2_500, 'engine-1'), { shard: 3, kind: 'closed', message: '', at: 1_500, node: 'engine-2' }];
  assert.deepEqual(takeoverTimes(1_000, [1, 2, 3], events), { 1: 200, 2: 1_500, 3: null });
});
