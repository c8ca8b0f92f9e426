import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditRecordCodec } from '../../topics/serde/record-codecs.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { startTestEngine } from '../../test/support/test-engine.js';
import { addressOf, serveGateway } from '../../test/support/http-gateway.js';
import { runLogbookCli } from '../../test/support/logbook-cli.js';
import { uniqueName, waitFor } from '../../test/support/test-env.js';

test("audited calls land on the broker's audit topic, keyed by namespace, and `logbook audit list` run as a process shows them", async () => {
  const t = await startTestEngine('kafka', { workers: false, shards: 2 });
  const server = await serveGateway(t.engine);
  try {
    const base = `${addressOf(server)}/api/v1/namespaces/default/workflows`;
    const workflowId = uniqueName('audited');
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post('', { workflowId, workflowType: 'OrderWorkflow', taskQueue: 'audit-orders', args: [] })).status, 201);
    assert.equal((await post(`/${workflowId}/terminate`, { reason: 'kafka audit test' })).status, 202);
    assert.equal((await post(`/${workflowId}/signals/late`, {})).status >= 400, true, 'a signal to a terminated run is refused');

    const { engine } = t;
    const topic = engine.catalog.audit;
    const onBroker = await waitFor('three audit records on the broker', async () => {
      const found: Array<{ key: string; record: AuditRecord }> = [];
      const partitions = (await engine.log.admin.describeTopics([topic])).get(topic)!.partitions;
      for (let partition = 0; partition < partitions; partition++) {
        await engine.log.readPartition(topic, partition, 0, async (records) => {
          for (const r of records) found.push({ key: String(r.key), record: await engine.serde.decode(auditRecordCodec, r.value!) });
        });
      }
      const ours = found.filter((f) => f.record.workflowId === workflowId);
      return ours.length >= 3 ? ours : undefined;
    }, 15_000);
    assert.deepEqual(onBroker.map((f) => [f.key, f.record.action, f.record.statusCode]).slice(0, 2), [['default', 'StartWorkflow', 201], ['default', 'TerminateWorkflow', 202]]);
    assert.equal(onBroker[2]!.record.action, 'SignalWorkflow');
    assert.ok(onBroker[2]!.record.errorCode, 'the refusal keeps its error code');

    const list = await runLogbookCli(['audit', 'list', '--address', addressOf(server), '--workflow-id', workflowId, '-o', 'json']);
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(listed.map((r) => r.action), ['SignalWorkflow', 'TerminateWorkflow', 'StartWorkflow'], 'newest first');
    const table = await runLogbookCli(['audit', 'list', '--address', addressOf(server), '--workflow-id', workflowId, '--limit', '1']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /SignalWorkflow/);
    assert.doesNotMatch(table.stdout, /TerminateWorkflow/);
    const refused = await runLogbookCli(['audit', 'list', '--address', addressOf(server), '--limit', '5000']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /limit/);
  } finally {
    server.close();
    await t.stop();
  }
});
