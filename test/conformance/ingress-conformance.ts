import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import type { Log, TopicSpec } from '../../topics/log/log.js';
import { Ingress } from '../../processors/ingress/ingress.js';
import { parseIngressMappings, type IngressMapping } from '../../processors/ingress/ingress-mapping.js';
import { runIdFor } from '../../processors/ingress/record-mapper.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { readAll } from './log-conformance.js';

/** Ingress from a business topic end to end on one backend: starts, signal-with-starts, dead letters, replays. */

const INGRESS_WORKFLOWS = fileURLToPath(new URL('../workflows/ingress.ts', import.meta.url));

const sourceSpec = (name: string, partitions: number): TopicSpec => ({ name, partitions, replicationFactor: 1, config: { 'cleanup.policy': 'delete' } });

/** Waits until the mapping's group has committed the end of every source partition. */
export async function ingressCaughtUp(log: Log, groupId: string, topic: string, partitions: number, timeoutMs = 60_000): Promise<void> {
  await waitFor(`${groupId} to commit the end of ${topic}`, async () => {
    const committed = await log.admin.groupOffsets(groupId, topic);
    for (let p = 0; p < partitions; p++) {
      if ((committed.get(p) ?? 0) !== (await log.endOffset(topic, p))) return false;
    }
    return true;
  }, timeoutMs);
}

/** Registers the ingress tests for one backend. */
export function ingressConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const queue = uniqueName('ingress');
  const running: Ingress[] = [];

  before(async () => {
    t = await startTestEngine(backend, { workers: false, extraWorkers: [{ taskQueue: queue, workflowsPath: INGRESS_WORKFLOWS }] });
  });
  after(async () => {
    await Promise.all(running.map((i) => i.stop()));
    await t.stop();
  });

  const startIngress = async (mappings: IngressMapping[]) => {
    const e = t.engine;
    const ingress = await Ingress.start({ log: e.log, catalog: e.catalog, serde: e.serde, dataConverter: e.dataConverter, endpoint: 'test' }, mappings);
    running.push(ingress);
    return ingress;
  };
  /** The value a workflow started by the ingress completed with (waiting for the start to arrive first). */
  const completedWith = async (workflowId: string): Promise<unknown> => {
    await waitFor(`${workflowId} to be started`, async () => (await t.engine.describe('default', workflowId)) !== null);
    const reply = await t.result(workflowId);
    assert.equal(reply.executionStatus, 'Completed', `${workflowId} completed: ${reply.failure?.message ?? ''}`);
    return t.engine.dataConverter.fromPayload(reply.payload!);
  };
  const mapping = (fields: Record<string, unknown>) => parseIngressMappings({ mappings: [fields] }, () => null)[0]!;

  test('records of a business topic start one workflow each, unmappable ones are dead-lettered with the reason, and the source offsets are committed to the end', async () => {
    const log = t.engine.log;
    const source = uniqueName('orders');
    await log.admin.createTopics([sourceSpec(source, 2)]);
    const good = Array.from({ length: 20 }, (_, i) => ({ orderId: `o${i}`, amountCents: 100 + i }));
    const producer = await log.producer();
    await producer.send(good.map((order) => ({ topic: source, key: order.orderId, value: Buffer.from(JSON.stringify(order)) })));
    const malformed: Array<{ key: string | null; value: Buffer | null; reason: RegExp }> = [
      { key: 'bad-json', value: Buffer.from('{"orderId": '), reason: /not JSON/ },
      { key: null, value: Buffer.from('{"orderId":"x","amountCents":1}'), reason: /no key/ },
      { key: 'tombstone', value: null, reason: /no value/ },
      { key: '', value: Buffer.from('{"orderId":"x","amountCents":1}'), reason: /the workflow id is empty/ },
    ];
    await producer.send(malformed.map((m, i) => ({ topic: source, partition: i % 2, key: m.key, value: m.value })));
    const m = mapping({
      name: uniqueName('orders-map'), sourceTopic: source, action: 'start', workflowId: { from: 'key' }, workflowIdPrefix: 'order-',
      workflowType: 'acceptOrder', taskQueue: queue,
    });
    await startIngress([m]);
    const names = t.engine.catalog.ingressNames(m.name);
    await ingressCaughtUp(log, names.groupId, source, 2);
    for (const order of good) {
      assert.deepEqual(await completedWith(`order-${order.orderId}`), order);
    }
    const deadLetters = await waitFor('the dead letters', async () => {
      const records = await readAll(log, names.deadLetter, 0);
      return records.length >= malformed.length ? records : undefined;
    });
    const reasons = deadLetters.map((r) => r.headers[DeadLetterHeaders.reason]!.toString());
    for (const expected of malformed) assert.ok(reasons.some((r) => expected.reason.test(r)), `a dead letter says ${expected.reason}: ${reasons.join(' | ')}`);
    assert.equal(deadLetters.length, malformed.length);
    for (const letter of deadLetters) {
      assert.equal(letter.headers[DeadLetterHeaders.sourceTopic]?.toString(), source);
      assert.match(letter.headers[DeadLetterHeaders.code]!.toString(), /^INGRESS_/);
      assert.ok(letter.headers[DeadLetterHeaders.sourceOffset], 'the dead letter names its source offset');
    }
  });

  test('a field-mapped task queue that breaks the naming rules dead-letters the record, and the records after it still start', async () => {
    const log = t.engine.log;
    const source = uniqueName('queued');
    await log.admin.createTopics([sourceSpec(source, 1)]);
    const producer = await log.producer();
    await producer.send([
      { topic: source, key: 'q1', value: Buffer.from(JSON.stringify({ order: { id: 'q1' }, queue: 'no spaces allowed', amountCents: 1 })) },
      { topic: source, key: 'q2', value: Buffer.from(JSON.stringify({ order: { id: 'q2' }, queue: queue, amountCents: 2 })) },
    ]);
    const m = mapping({ name: uniqueName('queued-map'), sourceTopic: source, action: 'start', workflowId: { field: 'order.id' }, workflowType: 'acceptOrder', taskQueue: { field: 'queue' }, args: [{ field: 'order' }] });
    await startIngress([m]);
    const names = t.engine.catalog.ingressNames(m.name);
    await ingressCaughtUp(log, names.groupId, source, 1);
    assert.deepEqual(await completedWith('q2'), { id: 'q2' });
    const [letter] = await readAll(log, names.deadLetter, 0);
    assert.match(letter!.headers[DeadLetterHeaders.reason]!.toString(), /taskQueue 'no spaces allowed' may contain only/);
    assert.equal(letter!.headers[DeadLetterHeaders.sourceOffset]?.toString(), '0');
  });

  test('reading a topic again from the start (a replay after a crash) starts nothing twice: the shard deduplicates by the source position', async () => {
    const log = t.engine.log;
    const source = uniqueName('replayed');
    await log.admin.createTopics([sourceSpec(source, 1)]);
    const producer = await log.producer();
    await producer.send(['r1', 'r2', 'r3'].map((id) => ({ topic: source, key: id, value: Buffer.from(JSON.stringify({ orderId: id, amountCents: 1 })) })));
    const fields = { sourceTopic: source, action: 'start', workflowId: { from: 'key' }, workflowType: 'acceptOrder', taskQueue: queue, workflowIdConflictPolicy: 'UseExisting' };
    const first = mapping({ name: uniqueName('first'), ...fields });
    await startIngress([first]);
    await ingressCaughtUp(log, t.engine.catalog.ingressNames(first.name).groupId, source, 1);
    for (const id of ['r1', 'r2', 'r3']) assert.deepEqual(await completedWith(id), { orderId: id, amountCents: 1 });
    // A second mapping over the same topic has its own group, so it reads every record again.
    const again = mapping({ name: uniqueName('again'), ...fields, workflowIdReusePolicy: 'AllowDuplicate' });
    await startIngress([again]);
    await ingressCaughtUp(log, t.engine.catalog.ingressNames(again.name).groupId, source, 1);
    for (const [offset, id] of ['r1', 'r2', 'r3'].entries()) {
      const state = await t.engine.describe('default', id);
      assert.equal(state?.executionInfo.runId, runIdFor(`${source}/0/${offset}`), `${id} kept its first run`);
      const history = await t.history(id, state!.executionInfo.runId);
      assert.equal(history.filter((e) => e.attributes.type === 'WorkflowExecutionStarted').length, 1);
    }
  });

  test('a mapping whose source topic does not exist, or whose dead letters would go to an engine topic, is refused at start naming the mapping', async () => {
    const log = t.engine.log;
    const source = uniqueName('present');
    await log.admin.createTopics([sourceSpec(source, 1)]);
    const fields = { name: uniqueName('refused'), action: 'start', workflowId: { from: 'key' }, workflowType: 'acceptOrder', taskQueue: queue };
    await assert.rejects(startIngress([mapping({ ...fields, sourceTopic: uniqueName('absent') })]), /source topic '.*' does not exist/);
    await assert.rejects(startIngress([mapping({ ...fields, sourceTopic: source, deadLetterTopic: t.engine.catalog.commands })]), /is one of the engine's topics/);
  });

  test('signal-with-start records start a run and deliver the value as its signal; signal records reach the open run', async () => {
    const log = t.engine.log;
    const [starts, signals] = [uniqueName('payments'), uniqueName('refunds')];
    await log.admin.createTopics([sourceSpec(starts, 1), sourceSpec(signals, 1)]);
    const producer = await log.producer();
    await producer.send([{ topic: starts, key: 'p1', value: Buffer.from(JSON.stringify({ orderId: 'p1', amountCents: 500 })) }]);
    const withStart = mapping({
      name: uniqueName('pay'), sourceTopic: starts, action: 'signalWithStart', workflowId: { from: 'key' }, workflowIdPrefix: 'pay-',
      workflowType: 'awaitPayment', taskQueue: queue, args: [{ const: null }], signalName: 'paid', signalArgs: [{ field: 'amountCents' }],
    });
    const signal = mapping({ name: uniqueName('sig'), sourceTopic: signals, action: 'signal', workflowId: { from: 'key' }, workflowIdPrefix: 'wait-', signalName: { field: 'name' }, signalArgs: [{ from: 'value' }] });
    await startIngress([withStart, signal]);
    assert.deepEqual(await completedWith('pay-p1'), { order: null, payments: [500] });
    await t.start('awaitPayment', queue, 'wait-w1', [{ orderId: 'w1', amountCents: 7 }]);
    await producer.send([{ topic: signals, key: 'w1', value: Buffer.from(JSON.stringify({ name: 'paid', via: 'topic' })) }]);
    assert.deepEqual(await completedWith('wait-w1'), { order: { orderId: 'w1', amountCents: 7 }, payments: [{ name: 'paid', via: 'topic' }] });
  });
}
