import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowClient, type WorkflowExecutionInfo } from '../../sdk/client/workflow-client.js';
import { startEngineProcess } from '../support/engine-process.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';

const shardsOf = async (endpoint: string) => ((await (await fetch(`${endpoint}/healthz`)).json()) as { shards: number[] }).shards;

test('with two nodes each owning shards, either node lists and counts the runs of every shard, paged once each, and lists the open runs lacking a patch on every shard', async () => {
  const prefix = uniqueName('visibility2').replaceAll('-', '_');
  const shards = 4;
  const dirs = [await mkdtemp(join(tmpdir(), 'logbook-vis-')), await mkdtemp(join(tmpdir(), 'logbook-vis-'))];
  const env = (data: string) => ({ LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ENGINE_ROLE: 'both', ENGINE_DATA: data });
  const a = await startEngineProcess(env(dirs[0]!));
  const b = await startEngineProcess(env(dirs[1]!));
  try {
    await waitFor('both nodes to own shards', async () => (await shardsOf(a.endpoint)).length > 0 && (await shardsOf(b.endpoint)).length > 0, 60_000);
    const viaA = new WorkflowClient({ address: a.endpoint });
    const viaB = new WorkflowClient({ address: b.endpoint });
    // No worker serves this queue: every run stays Running with the row its start wrote.
    const ids = Array.from({ length: 12 }, (_, i) => `idle-${i}`);
    for (const [i, id] of ids.entries()) {
      await viaA.start('idle', { workflowId: id, taskQueue: 'nobody', searchAttributes: { Parity: { type: 'Keyword', value: i % 2 === 0 ? 'even' : 'odd' } } });
    }
    const localIds = async (endpoint: string) =>
      ((await (await fetch(`${endpoint}/api/v1/namespaces/default/workflows?query=${encodeURIComponent("TaskQueue = 'nobody'")}&local=1`)).json()) as { executions: WorkflowExecutionInfo[] }).executions.map((r) => r.workflowId);
    const [onA, onB] = [await localIds(a.endpoint), await localIds(b.endpoint)];
    assert.ok(onA.length > 0 && onB.length > 0, `both nodes hold rows (A ${onA.length}, B ${onB.length})`);
    assert.deepEqual([...onA, ...onB].sort(), [...ids].sort(), 'the nodes hold disjoint shares of the rows');

    for (const client of [viaA, viaB]) {
      assert.equal(await client.count(`TaskQueue = 'nobody'`), 12);
      assert.equal(await client.count(`TaskQueue = 'nobody' AND Parity = 'odd'`), 6);
      const listed: WorkflowExecutionInfo[] = [];
      for await (const run of client.list({ query: `TaskQueue = 'nobody'`, pageSize: 5 })) listed.push(run);
      assert.deepEqual(listed.map((r) => r.workflowId).sort(), [...ids].sort(), 'every run exactly once across pages of 5');
      const starts = listed.map((r) => Date.parse(r.startTime));
      assert.deepEqual(starts, [...starts].sort((x, y) => y - x), 'newest start first');
      const lacking = await client.openRunsLackingPatch('idle', 'some-patch');
      assert.deepEqual(lacking.map((r) => r.workflowId).sort(), [...ids].sort(), 'no run recorded the patch, on either node');
    }
  } finally {
    await b.stop();
    await a.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
});
