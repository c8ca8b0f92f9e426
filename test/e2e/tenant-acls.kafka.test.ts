import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, Connection } from 'logbook/client';
import { NativeConnection, Worker } from 'logbook/worker';
import { openLog } from '../../topics/log/open-log.js';
import type { KafkaSecurity } from '../../topics/log/kafka-security.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { charge } from '../workflows/temporal-compatible.js';
import { TENANT_USERS } from '../kafka/secured-listener.js';
import { assembleKafkaTools } from '../kafka/assemble.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers, securedKafka, uniqueName } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * The README's ACL recipe ("Isolating tenants with Kafka ACLs"), applied as written with Kafka's
 * own kafka-acls.sh to a broker that runs the ACL authorizer: a tenant's worker principal, over
 * SASL_SSL, runs its namespace's workflows and activities, and cannot read another namespace's
 * task topics.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const [BILLING] = TENANT_USERS;

let t: TestEngine;
let server: Server;
let prefix: string;
const taskQueue = uniqueName('tenant');

/** The secured listener as the tenant `billing` reaches it. */
function billingSecurity(): { brokers: string[]; security: KafkaSecurity } {
  const { brokers, security } = securedKafka('scram-sha-256');
  return { brokers, security: { ...security, sasl: { mechanism: 'scram-sha-256', username: BILLING.username, password: BILLING.password } } };
}

before(async () => {
  t = await startTestEngine('kafka', { workers: false });
  prefix = t.engine.catalog.prefix;
  server = await serveGateway(t.engine);
  // The README's recipe for tenant billing, for this deployment's prefix, through the PLAINTEXT listener (a super user).
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('**Isolating tenants with Kafka ACLs.**'));
  const recipe = /```sh\n([\s\S]*?)```/.exec(section)![1]!.replaceAll('logbook.', `${prefix}.`).replaceAll('logbook-', `${prefix}-`);
  const bin = await assembleKafkaTools({ ...(process.env.LOGBOOK_KAFKA_VERSION ? { version: process.env.LOGBOOK_KAFKA_VERSION } : {}) });
  const acl = `${join(bin, 'kafka-acls.sh')} --bootstrap-server ${kafkaBrokers().join(',')} --add --allow-principal User:${BILLING.username}`;
  await run('bash', ['-c', recipe], { env: { ...process.env, ACL: acl }, timeout: 240_000 });
});
after(async () => {
  server?.close();
  if (t) await stopTaskBridges(t.engine);
  await t?.stop();
});

test("a tenant's worker principal with the README's ACLs runs its namespace's workflows and activities over SASL_SSL", async () => {
  const { brokers, security } = billingSecurity();
  const connection = await NativeConnection.connect({ brokers, security, prefix, address: addressOf(server) });
  const worker = await Worker.create({ connection, namespace: 'billing', taskQueue, workflowsPath: WORKFLOWS, activities });
  const client = new Client({ connection: await Connection.connect({ address: addressOf(server) }), namespace: 'billing' });
  try {
    const result = await worker.runUntil(client.workflow.execute(charge, { taskQueue, workflowId: uniqueName('billing-charge'), args: ['visa'] }));
    assert.equal(result, 'charged visa');
  } finally {
    await connection.close();
  }
});

test("the same principal cannot read another namespace's task topics: the broker refuses it", async () => {
  await t.engine.node.taskTopics.ensure('shipping', taskQueue);
  await t.engine.node.taskTopics.ensure('billing', taskQueue);
  const { brokers, security } = billingSecurity();
  const log = await openLog({ kind: 'kafka', brokers, security });
  try {
    const own = t.engine.catalog.taskTopics('billing', taskQueue).activity;
    const other = t.engine.catalog.taskTopics('shipping', taskQueue).activity;
    await log.readPartition(own, 0, 0, () => undefined);
    await assert.rejects(log.readPartition(other, 0, 0, () => undefined), (error: unknown) => /authoriz/i.test(String((error as Error).message ?? error)), 'reading shipping\'s activity tasks as billing');
  } finally {
    await log.close();
  }
});
