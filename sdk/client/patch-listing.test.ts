import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startTestEngine, type TestEngine } from '../../test/support/test-engine.js';
import { waitFor } from '../../test/support/test-env.js';
import * as activities from '../../test/workflows/patching/activities.js';
import { WorkflowClient } from './workflow-client.js';
import { addressOf, serveGateway } from '../../test/support/http-gateway.js';

const version = (name: string): string => fileURLToPath(new URL(`../../test/workflows/patching/${name}.ts`, import.meta.url));

let t: TestEngine;
let server: Server;
let client: WorkflowClient;
before(async () => {
  // One queue per code version, so runs of both versions are open at once.
  t = await startTestEngine('embedded', {
    workers: false,
    extraWorkers: [
      { taskQueue: 'audited-v1', workflowsPath: version('v1'), activities },
      { taskQueue: 'audited-v2', workflowsPath: version('v2-patched'), activities },
    ],
  });
  server = await serveGateway(t.engine);
  client = new WorkflowClient({ address: addressOf(server) });
});
after(async () => {
  server.close();
  await t.stop();
});

test('openRunsLackingPatch lists the open runs of the type that never recorded the patch, and no closed or patched run', async () => {
  const oldRun = await client.start('audited', { workflowId: 'audited-old', taskQueue: 'audited-v1' });
  const patchedRun = await client.start('audited', { workflowId: 'audited-patched', taskQueue: 'audited-v2' });
  const finished = await client.start('audited', { workflowId: 'audited-finished', taskQueue: 'audited-v1' });
  await finished.signal('go');
  assert.equal((await finished.result('30s')).status, 'Completed');
  // The patched run has upserted LogbookChangeVersion once its second activity is done.
  await waitFor('the patched run to record its patch', async () => (await patchedRun.fetchHistory()).filter((e: { attributes: { type: string } }) => e.attributes.type === 'ActivityTaskCompleted').length === 2);

  const lacking = await client.openRunsLackingPatch('audited', 'add-audit');
  assert.deepEqual(lacking.map((r) => [r.workflowId, r.runId]), [['audited-old', oldRun.runId]]);
  assert.deepEqual(await client.openRunsLackingPatch('some-other-type', 'add-audit'), []);
  assert.deepEqual((await client.openRunsLackingPatch('audited', 'another-patch')).map((r) => r.workflowId).sort(), ['audited-old', 'audited-patched']);
  await oldRun.terminate('test done');
  await patchedRun.terminate('test done');
});
