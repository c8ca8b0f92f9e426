import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestEngine } from '../test/support/test-engine.js';
import { addressOf, serveGateway } from '../test/support/http-gateway.js';
import { uniqueName } from '../test/support/test-env.js';
import { ingressCommand } from './ingress-cli.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('./cli/bin.mjs', import.meta.url));

/** Runs `logbook ingress …` as its own process (the command line as a user runs it). */
async function ingressProcess(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'ingress', ...args]);
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Runs the same command in this process, its output captured: quicker for the many calls. */
async function ingress(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  console.error = console.log;
  try {
    return { code: await ingressCommand(args), out: lines.join('\n') };
  } catch (thrown) {
    // As the logbook command does: the message, one line, exit 1.
    lines.push((thrown as Error).message);
    return { code: 1, out: lines.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

test('logbook ingress put, list and delete manage mappings through the gateway, inlining an Avro schema file; refusals and an absent gateway exit 1 with one line', async () => {
  const t = await startTestEngine('kafka', { workers: false, shards: 2 });
  const server = await serveGateway(t.engine);
  const dir = await mkdtemp(join(tmpdir(), 'logbook-ingress-cli-'));
  try {
    const address = ['--address', addressOf(server)];
    const source = uniqueName('cli-orders');
    await t.engine.log.admin.createTopics([{ name: source, partitions: 1, replicationFactor: 1, config: { 'cleanup.policy': 'delete' } }]);
    await writeFile(join(dir, 'order.avsc'), JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 'orderId', type: 'string' }] }));
    const mapping = { name: 'cli-orders', sourceTopic: source, format: 'avro', avroSchemaFile: 'order.avsc', action: 'start', workflowId: { field: 'orderId' }, workflowType: 'acceptOrder', taskQueue: 'ingress' };
    await writeFile(join(dir, 'ingress.json'), JSON.stringify({ mappings: [mapping] }));

    const put = await ingressProcess(['put', join(dir, 'ingress.json'), ...address]);
    assert.equal(put.code, 0, put.out);
    assert.match(put.out, new RegExp(`^created ingress mapping cli-orders: ${source} → start in default$`, 'm'));
    const listed = await ingress(['list', ...address]);
    assert.match(listed.out, new RegExp(`^cli-orders\\tapi\\t(running|not running)\\t${source} → start in default$`, 'm'));
    const again = await ingress(['put', join(dir, 'ingress.json'), ...address]);
    assert.match(again.out, /^replaced ingress mapping cli-orders/m);

    await writeFile(join(dir, 'bad.json'), JSON.stringify({ ...mapping, avroSchemaFile: undefined, format: 'json', action: 'explode' }));
    const bad = await ingress(['put', join(dir, 'bad.json'), ...address]);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /^refused: ingress mapping 'cli-orders': action must be one of/m);

    assert.equal((await ingress(['delete', 'cli-orders', ...address])).code, 0);
    assert.match((await ingress(['list', ...address])).out, /^no ingress mappings$/m);
    const missing = await ingress(['delete', 'cli-orders', ...address]);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /^refused: no ingress mapping 'cli-orders' was created through the API \(IngressMappingNotFound\)$/m);

    const nobody = await ingressProcess(['list', '--address', 'http://127.0.0.1:9']);
    assert.equal(nobody.code, 1);
    assert.match(nobody.out, /^error: no gateway answers at http:\/\/127\.0\.0\.1:9 .*pass --address$/m);
    assert.doesNotMatch(nobody.out, /\n\s+at /, 'no stack trace');
    assert.equal((await ingress(['frobnicate'])).code, 2);
  } finally {
    server.closeAllConnections();
    server.close();
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
