import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, Connection, withSubject } from 'logbook/client';
import { NativeConnection, Worker } from 'logbook/worker';
import { createCodecServer, EncryptionCodec, FileKeyStore, KeyErased } from 'logbook/encryption';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { runLogbookCli, type CliRun } from '../support/logbook-cli.js';
import type { Profile } from '../workflows/encrypted-profile.js';

const WORKFLOWS = fileURLToPath(new URL('../workflows/encrypted-profile.ts', import.meta.url));
const activities = { describeProfile: async (p: Profile) => `profile of ${p.customerId}: ${p.secret}` };
const TOKEN = 'codec-test-token';

describe('payload encryption on the real broker: the topics hold only ciphertext, the codec endpoint decodes (for the CLI too), eraseSubject shreds', () => {
  let t: TestEngine;
  let gateway: Server;
  let codecServer: Server;
  let keysDir: string;
  let codec: EncryptionCodec;
  let client: Client;
  const workers: Worker[] = [];
  const running: Promise<void>[] = [];

  before(async () => {
    keysDir = await mkdtemp(join(tmpdir(), 'logbook-keys-'));
    codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: keysDir }) });
    const dataConverter = { payloadCodecs: [codec] };
    t = await startTestEngine('kafka', { workers: false, shards: 2 });
    gateway = await serveGateway(t.engine);
    const kafkaConnection = NativeConnection.fromParts(t.engine.workerConnection(), engineHistoryFetcher(t.engine));
    const httpConnection = await NativeConnection.connect({ address: addressOf(gateway), taskPath: 'gateway', dataConverter });
    workers.push(await Worker.create({ connection: kafkaConnection, taskQueue: 'enc-kafka', workflowsPath: WORKFLOWS, activities, dataConverter }));
    workers.push(await Worker.create({ connection: httpConnection, taskQueue: 'enc-http', workflowsPath: WORKFLOWS, activities }));
    for (const w of workers) running.push(w.run());
    client = new Client({ connection: await Connection.connect({ address: addressOf(gateway) }), dataConverter });
    codecServer = createCodecServer({ codecs: [codec], token: TOKEN, allowOrigin: 'http://ui.example' });
    await new Promise<void>((ready) => codecServer.listen(0, '127.0.0.1', ready));
    // Only encrypted payloads may reach enc-kafka: the CLI's --input must go through the codec endpoint.
    await t.engine.namespaces.update('default', { codecRequiredTaskQueues: ['enc-kafka'] });
  });

  after(async () => {
    for (const w of workers) w.shutdown();
    await Promise.allSettled(running);
    codecServer?.close();
    gateway?.close();
    await t?.stop();
    await rm(keysDir, { recursive: true, force: true });
  });

  /** Runs the workflow for a new customer on `taskQueue`, its input, activity result and signal carrying the secret. */
  async function runFor(taskQueue: string): Promise<{ workflowId: string; customerId: string; secret: string }> {
    const customerId = `customer-${randomUUID()}`;
    const secret = `secret-${randomUUID()}`;
    const workflowId = `enc-${randomUUID()}`;
    const handle = await client.workflow.start('encryptedProfile', { taskQueue, workflowId, args: [withSubject(customerId, { customerId, secret })] });
    await handle.signal('note', withSubject(customerId, `note ${secret}`));
    const result = (await handle.result()) as { described: string; note: string };
    assert.deepEqual(result, { described: `profile of ${customerId}: ${secret}`, note: `note ${secret}` });
    return { workflowId, customerId, secret };
  }

  /** `logbook …args` run as a process against the test's gateway, through the codec endpoint unless `codec` is false. */
  function cli(args: readonly string[], codec = true): Promise<CliRun> {
    const endpoint = `http://127.0.0.1:${(codecServer.address() as { port: number }).port}`;
    return runLogbookCli([...args, '--address', addressOf(gateway), ...(codec ? ['--codec-endpoint', endpoint, '--codec-token', TOKEN] : [])]);
  }

  /** The same workflow started and signalled by the CLI, its values encoded by the codec endpoint under the customer's subject. */
  async function runThroughCli(): Promise<{ workflowId: string; secret: string }> {
    const customerId = `customer-${randomUUID()}`;
    const secret = `secret-${randomUUID()}`;
    const workflowId = `enc-cli-${randomUUID()}`;
    const started = await cli(['workflow', 'start', '--type', 'encryptedProfile', '-t', 'enc-kafka', '-w', workflowId, '-i', JSON.stringify({ customerId, secret }), '--subject', customerId]);
    assert.equal(started.code, 0, started.stderr);
    const signalled = await cli(['workflow', 'signal', '-w', workflowId, '--name', 'note', '-i', JSON.stringify(`note ${secret}`), '--subject', customerId]);
    assert.equal(signalled.code, 0, signalled.stderr);
    assert.deepEqual(await client.workflow.getHandle(workflowId).result(), { described: `profile of ${customerId}: ${secret}`, note: `note ${secret}` });
    return { workflowId, secret };
  }

  /** Every byte of every topic of the deployment's prefix: keys, values and headers, all partitions from the start. */
  async function everyTopicsBytes(): Promise<Buffer> {
    const prefix = t.engine.catalog.prefix;
    const topics = (await t.engine.log.admin.listTopics()).filter((name) => name.startsWith(prefix));
    assert.ok(topics.length > 5, `the deployment has topics under ${prefix}`);
    const descriptions = await t.engine.log.admin.describeTopics(topics);
    const chunks: Buffer[] = [];
    for (const topic of topics) {
      for (let partition = 0; partition < (descriptions.get(topic)?.partitions ?? 0); partition++) {
        await t.engine.log.readPartition(topic, partition, 0, (records) => {
          for (const r of records) {
            if (r.key) chunks.push(Buffer.from(r.key));
            if (r.value) chunks.push(r.value);
            for (const v of Object.values(r.headers ?? {})) if (v) chunks.push(Buffer.from(v as Buffer));
          }
        });
      }
    }
    return Buffer.concat(chunks);
  }

  async function decodeHistoryThroughEndpoint(workflowId: string): Promise<{ status: number; body: { payloads?: { data: string }[]; code?: string; message?: string } }> {
    const history = (await (await fetch(`${addressOf(gateway)}/api/v1/namespaces/default/workflows/${workflowId}/history`)).json()) as unknown;
    const envelopes: unknown[] = [];
    JSON.stringify(history, (key, value: unknown) => (key === '$payload' ? (envelopes.push(value), value) : value));
    assert.ok(envelopes.length >= 4, 'the gateway shows the encrypted payloads as $payload envelopes');
    const port = (codecServer.address() as { port: number }).port;
    const response = await fetch(`http://127.0.0.1:${port}/codec/decode`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ payloads: envelopes }) });
    return { status: response.status, body: (await response.json()) as never };
  }

  let erased: { workflowId: string; customerId: string; secret: string };
  let overHttp: { workflowId: string; secret: string };

  it('runs workflows on the Kafka and the HTTP task paths, and one the CLI starts through the codec endpoint, whose secret never appears in any topic, in clear or in base64', async () => {
    const [viaCli, plaintext] = await Promise.all([
      runThroughCli(),
      cli(['workflow', 'start', '--type', 'encryptedProfile', '-t', 'enc-kafka', '-i', '{"customerId":"c","secret":"in clear"}'], false),
    ]);
    assert.equal(plaintext.code, 4, 'without --codec-endpoint the CLI sends JSON, which the codec-required queue refuses');
    assert.match(plaintext.stderr, /^error: PlaintextPayloadRefused: task queue enc-kafka of namespace default requires encrypted payloads/m);
    erased = await runFor('enc-kafka');
    overHttp = await runFor('enc-http');
    const bytes = (await everyTopicsBytes()).toString('latin1');
    for (const secret of [erased.secret, overHttp.secret, viaCli.secret]) {
      assert.ok(!bytes.includes(secret), 'the secret is not in any topic');
      assert.ok(!bytes.includes(Buffer.from(secret).toString('base64').slice(0, 40)), 'nor its base64');
    }
    assert.ok(bytes.includes(erased.customerId), 'the subject itself is in clear, as the contract says');
  });

  it('decodes the history through the codec endpoint, which refuses a missing or wrong token', async () => {
    const { status, body } = await decodeHistoryThroughEndpoint(erased.workflowId);
    assert.equal(status, 200);
    const decoded = body.payloads!.map((p) => Buffer.from(p.data, 'base64').toString('utf8')).join('\n');
    assert.ok(decoded.includes(erased.secret));
    const port = (codecServer.address() as { port: number }).port;
    const call = (headers: Record<string, string>, body: string) => fetch(`http://127.0.0.1:${port}/codec/decode`, { method: 'POST', headers, body });
    assert.equal((await call({}, '{"payloads":[]}')).status, 401);
    assert.equal((await call({ authorization: 'Bearer wrong' }, '{"payloads":[]}')).status, 403);
    const bad = await call({ authorization: `Bearer ${TOKEN}` }, '{"payloads":[{"metadata":{},"data":5}]}');
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /payloads\[0\]\.data/);
  });

  it('shows the secret in the CLI\'s workflow show and workflow result with --codec-endpoint, and only envelopes without it', async () => {
    const [show, result, plain] = await Promise.all([
      cli(['workflow', 'show', '-w', erased.workflowId, '-o', 'json']),
      cli(['workflow', 'result', '-w', erased.workflowId, '-o', 'json']),
      cli(['workflow', 'show', '-w', erased.workflowId, '-o', 'json'], false),
    ]);
    assert.equal(show.code, 0, show.stderr);
    const started = (JSON.parse(show.stdout) as Array<{ attributes: { type: string; input?: unknown[] } }>)[0]!;
    assert.deepEqual(started.attributes.input, [{ customerId: erased.customerId, secret: erased.secret }], 'the start input printed as its JSON value');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((JSON.parse(result.stdout) as { result: unknown }).result, { described: `profile of ${erased.customerId}: ${erased.secret}`, note: `note ${erased.secret}` });
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(!plain.stdout.includes(erased.secret), 'without the endpoint the CLI cannot read the secret');
    assert.match(plain.stdout, /"\$payload"/);
  });

  it('after eraseSubject the result and the history decode fail with KeyErased, and another subject still completes', async () => {
    await codec.eraseSubject(erased.customerId);
    await assert.rejects(client.workflow.getHandle(erased.workflowId).result(), (error: unknown) => error instanceof KeyErased && error.message.includes(erased.customerId));
    const { status, body } = await decodeHistoryThroughEndpoint(erased.workflowId);
    assert.equal(status, 422);
    assert.equal(body.code, 'KeyErased');
    const [show, result] = await Promise.all([
      cli(['workflow', 'show', '-w', erased.workflowId]),
      cli(['workflow', 'result', '-w', erased.workflowId]),
      runFor('enc-kafka'),
    ]);
    for (const run of [show, result]) {
      assert.equal(run.code, 8, `the CLI exits 8 for an erased subject: ${run.stderr}`);
      assert.equal(run.stderr.trim(), `error: KeyErased: the key of data subject '${erased.customerId}' was erased: its payloads can no longer be decrypted`);
    }
  });
});
