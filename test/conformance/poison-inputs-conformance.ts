import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import type { LogRecord } from '../../topics/log/log.js';
import { ShardState, type ShardTransition } from '../../processors/shard-runtime/shard-lifecycle.js';
import { poisonSampler } from '../support/poison-records.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { waitFor } from '../support/test-env.js';

/** Reads the whole dead-letter topic. */
export async function deadLetters(t: TestEngine): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  await t.engine.log.readPartition(t.engine.catalog.deadLetter, 0, 0, (records) => void out.push(...records));
  return out;
}

/** Workflow ids that cover every shard at least `perShard` times. */
function idsOverEveryShard(t: TestEngine, count: number, perShard: number): string[] {
  const ids = Array.from({ length: count }, (_, i) => `ordinary-${i}`);
  const shards = new Map<number, number>();
  for (const id of ids) shards.set(t.engine.catalog.shardOf('default', id), (shards.get(t.engine.catalog.shardOf('default', id)) ?? 0) + 1);
  assert.equal(shards.size, t.engine.catalog.shards, 'the ids reach every shard');
  assert.ok([...shards.values()].every((n) => n >= perShard));
  return ids;
}

/**
 * Whatever a topic holds, a shard isolates the input that fails: the three starts that once
 * bricked shards (namespace `a.b`, namespace `../../etc`, task queue `../../q`), random bytes,
 * valid Avro with nonsense fields, truncated commands, missing, empty and huge keys and a value
 * near the record limit are dead-lettered with the reason and the step, and afterwards ordinary
 * workflows on every shard complete while no shard ever leaves RUNNING.
 */
export function poisonInputsConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const transitions: ShardTransition[] = [];
  before(async () => {
    t = await startTestEngine(backend, { shards: 4, engine: { onShardTransition: (tr) => transitions.push(tr) } });
    await waitFor('every shard running', () => t.engine.node.shardReports().filter((r) => r.state === ShardState.Running).length === 4, 60_000);
  });
  after(async () => t.stop());

  test('poison records written straight into the command topic are dead-lettered with the reason and step; 200 ordinary workflows over every shard then complete, and no shard ever left RUNNING', async () => {
    const startedAt = transitions.length;
    const plan = await poisonSampler(t.engine.catalog.commands, { maxRecordBytes: t.engine.log.maxRecordBytes });
    const producer = await t.engine.log.producer();
    for (const record of plan.records) await producer.send([record]);
    const dead = await waitFor('every poison record dead-lettered', async () => {
      const found = await deadLetters(t);
      return found.length >= plan.mustDeadLetter.size ? found : undefined;
    }, 60_000);
    assert.equal(dead.length, plan.mustDeadLetter.size, 'nothing else was dead-lettered');
    const reasons = dead.map((d) => `${d.headers[DeadLetterHeaders.step]?.toString()} ${d.headers[DeadLetterHeaders.code]?.toString()}: ${d.headers[DeadLetterHeaders.reason]?.toString()}`);
    for (const bad of ['a.b', '../../etc', '../../q']) {
      const reason = reasons.find((r) => r.includes(`'${bad}'`));
      assert.ok(reason, `the start naming '${bad}' is dead-lettered with a reason that names it: ${reasons.join('\n')}`);
      assert.match(reason, /may contain only letters, digits, '_' and '-'/);
    }
    for (const d of dead) {
      assert.ok(d.headers[DeadLetterHeaders.step], 'every dead letter names its step');
      assert.ok(d.headers[DeadLetterHeaders.sourceOffset], 'and its source position');
    }

    const ids = idsOverEveryShard(t, 200, 20);
    await Promise.all(ids.map((id) => t.start('order', 'orders', id, [{ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' }])));
    for (const id of ids) await t.signal(id, 'sellerPacked', [{ parcelId: id }]);
    const replies = await Promise.all(ids.map((id) => t.result(id, 120_000)));
    replies.forEach((r, i) => assert.equal(r.executionStatus, 'Completed', `${ids[i]} completed`));
    const moves = transitions.slice(startedAt).map((m) => `${m.shard}:${m.from}>${m.to}`);
    assert.deepEqual(moves, [], 'no shard left RUNNING');
  });
}
