import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { topicCatalog } from '../../topics/catalog.js';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import { openLog } from '../../topics/log/open-log.js';
import { frameSingleObject, schemaFingerprint } from '../../topics/serde/index.js';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { readHistories } from '../support/history-audit.js';
import { securedKafka, uniqueName, waitFor } from '../support/test-env.js';
import type { SaslMechanism } from '../../topics/log/kafka-security.js';
import { kafkaJsSecurity } from '../../topics/log/kafka/kafkajs-security.js';
import { readAll } from '../conformance/log-conformance.js';
import { ingressCaughtUp } from '../conformance/ingress-conformance.js';

/**
 * The ingress acceptance test: a plain producer writes business records while engine nodes that
 * pump them are killed with kill -9; every good record starts exactly one workflow, every bad one
 * is dead-lettered once, and the source group's committed offsets reach the topic's end. Every
 * client (the producer, the engine nodes, the checks) reaches the broker on its SASL_SSL listener:
 * JSON with SCRAM-SHA-512, Avro with PLAIN.
 */

const GOOD = 10_000;
const BAD = 50;
const SOURCE_PARTITIONS = 4;
const CHUNKS = 20;

const ORDER_SCHEMA = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example.shop',
  fields: [
    { name: 'orderId', type: 'string' },
    { name: 'amountCents', type: 'long' },
  ],
} as const;

/** How the source's values are written: the good records and the malformed ones. */
interface SourceFormat {
  readonly name: 'json' | 'avro';
  readonly mechanism: SaslMechanism;
  good(i: number): Buffer;
  bad(i: number): Buffer;
  mappingFields(schemaFile: string): Record<string, unknown>;
}

const json: SourceFormat = {
  name: 'json',
  mechanism: 'scram-sha-512',
  good: (i) => Buffer.from(JSON.stringify({ orderId: `o${i}`, amountCents: i })),
  // Half are not JSON; half lack the field the workflow id comes from.
  bad: (i) => Buffer.from(i % 2 === 0 ? `{"orderId": "o-bad-${i}",` : JSON.stringify({ amountCents: i })),
  mappingFields: () => ({ format: 'json' }),
};

const orderType = avro.Type.forSchema(ORDER_SCHEMA as unknown as avro.Schema);
const fingerprint = schemaFingerprint(ORDER_SCHEMA);
const avroFormat: SourceFormat = {
  name: 'avro',
  mechanism: 'plain',
  good: (i) => frameSingleObject(fingerprint, orderType.toBuffer({ orderId: `o${i}`, amountCents: i })),
  // Half carry another schema's fingerprint; half are cut short.
  bad: (i) => (i % 2 === 0 ? frameSingleObject(fingerprint ^ 1n, orderType.toBuffer({ orderId: `x${i}`, amountCents: i })) : frameSingleObject(fingerprint, Buffer.from([0x08]))),
  mappingFields: (schemaFile) => ({ format: 'avro', avroSchemaFile: schemaFile }),
};

for (const format of [json, avroFormat]) {
  test(`${GOOD} ${format.name} records and ${BAD} malformed ones, produced over SASL_SSL (${format.mechanism.toUpperCase()}) while engine nodes are killed with kill -9 twice: exactly ${GOOD} workflows start, none twice; the ${BAD} reach the dead-letter topic with reasons; the committed offsets reach the end`, async () => {
    const prefix = uniqueName(`ingress_${format.name}`).replaceAll('-', '_');
    const shards = 4;
    const source = uniqueName(`orders-${format.name}`);
    const dir = await mkdtemp(join(tmpdir(), 'logbook-ingress-'));
    const secured = securedKafka(format.mechanism);
    const brokers = secured.brokers;
    const kafka = new Kafka({ clientId: 'business-producer', brokers, ...kafkaJsSecurity(secured.security), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: source, numPartitions: SOURCE_PARTITIONS, replicationFactor: 1 }] });
    await admin.disconnect();
    await writeFile(join(dir, 'order.avsc'), JSON.stringify(ORDER_SCHEMA));
    const mapping = {
      name: 'orders', sourceTopic: source, action: 'start', workflowId: { field: 'orderId' }, workflowType: 'acceptOrder', taskQueue: 'ingress',
      ...format.mappingFields('order.avsc'),
    };
    await writeFile(join(dir, 'ingress.json'), JSON.stringify({ mappings: [mapping] }));
    const env = (node: string) => ({
      LOGBOOK_KAFKA_BROKERS: brokers.join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ENGINE_ROLE: 'engine',
      ENGINE_INGRESS: join(dir, 'ingress.json'), ENGINE_DATA: join(dir, node), ...secured.env,
    });
    const nodes: EngineProcess[] = [await startEngineProcess(env('a1')), await startEngineProcess(env('b1'))];
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const log = await openLog({ kind: 'kafka', brokers, security: secured.security });
    const catalog = topicCatalog({ prefix, shards });
    try {
      // Every 201st record is malformed, spread over the whole run and every partition.
      const values: Array<{ key: string; value: Buffer }> = [];
      let good = 0;
      let bad = 0;
      while (good < GOOD || bad < BAD) {
        if (bad < BAD && (values.length % 201 === 200 || good === GOOD)) values.push({ key: `bad-${bad}`, value: format.bad(bad++) });
        else values.push({ key: `o${good}`, value: format.good(good++) });
      }
      const replacements: Array<Promise<EngineProcess>> = [];
      const chunk = Math.ceil(values.length / CHUNKS);
      for (let c = 0; c < CHUNKS; c++) {
        await producer.send({ topic: source, messages: values.slice(c * chunk, (c + 1) * chunk) });
        // Two kill -9s, each of a node that is pumping: the first node mid-way, the second later.
        if (c === 6 || c === 13) {
          const victim = nodes.shift()!;
          await victim.kill9();
          replacements.push(startEngineProcess(env(`${c}`)));
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      nodes.push(...(await Promise.all(replacements)));

      await ingressCaughtUp(log, catalog.ingressNames('orders').groupId, source, SOURCE_PARTITIONS, 240_000);

      const starts = await waitFor(`${GOOD} workflows started`, async () => {
        const histories = await readHistories(log, catalog);
        const started = [...histories.values()].flatMap((events) => events.filter((e) => e.attributes.type === 'WorkflowExecutionStarted'));
        return started.length >= GOOD ? started : undefined;
      }, 120_000);
      const perWorkflow = new Map<string, number>();
      for (const event of starts) perWorkflow.set(event.workflowId, (perWorkflow.get(event.workflowId) ?? 0) + 1);
      assert.equal(perWorkflow.size, GOOD, 'one workflow per good record');
      assert.deepEqual([...perWorkflow.values()].filter((n) => n > 1), [], 'no workflow started twice');
      assert.equal(starts.length, GOOD);

      const letters = await readAll(log, catalog.ingressNames('orders').deadLetter, 0);
      const positions = new Set(letters.map((l) => `${l.headers[DeadLetterHeaders.sourcePartition]}/${l.headers[DeadLetterHeaders.sourceOffset]}`));
      assert.equal(positions.size, BAD, 'every malformed record is dead-lettered');
      assert.equal(letters.length, BAD, 'and none twice');
      for (const letter of letters) assert.match(letter.headers[DeadLetterHeaders.reason]!.toString(), /ingress mapping 'orders': the (value|record)/);
    } finally {
      await producer.disconnect();
      await Promise.all(nodes.map((n) => n.stop()));
      await log.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
