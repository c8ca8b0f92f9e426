import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';
import { Worker } from '../../sdk/worker/worker.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';

/** Workflows signalling and cancelling workflows on other shards, on one backend with 8 shards. */

const EXTERNAL_WORKFLOWS = fileURLToPath(new URL('../workflows/external.ts', import.meta.url));
const SHARDS = 8;

/** Registers the external signal and cancel tests for one backend. */
export function externalSignalsConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let worker: Worker;
  const queue = uniqueName('external');

  before(async () => {
    t = await startTestEngine(backend, { workers: false, shards: SHARDS });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: EXTERNAL_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
  });
  after(async () => {
    await worker.stop(1_000);
    await t.stop();
  });

  /** Two fresh workflow ids that live on different shards. */
  const idsOnDifferentShards = (label: string): [string, string] => {
    const a = uniqueName(`${label}-a`);
    for (let i = 0; ; i++) {
      const b = `${a}-b${i}`;
      if (t.engine.catalog.shardOf('default', a) !== t.engine.catalog.shardOf('default', b)) return [a, b];
    }
  };

  test('workflow A signals workflow B on another shard; B completes with the signal value and records A as the initiator', async () => {
    const [a, b] = idsOnDifferentShards('sig');
    const runB = await t.start('receiver', queue, b, []);
    await t.start('sender', queue, a, [b, 42]);
    assert.equal(resultOf(t.engine, await t.result(a)), 'sent');
    assert.equal(resultOf(t.engine, await t.result(b)), 42);
    const signaled = (await t.history(b, runB)).find((e) => e.attributes.type === 'WorkflowExecutionSignaled');
    assert.ok(signaled?.attributes.type === 'WorkflowExecutionSignaled');
    assert.equal(signaled.attributes.externalInitiator?.workflowId, a);
  });

  test('signalling a workflow that does not exist rejects the caller with ExternalWorkflowExecutionNotFound', async () => {
    const [a, missing] = idsOnDifferentShards('missing');
    const runA = await t.start('sender', queue, a, [missing, 1]);
    assert.equal(resultOf(t.engine, await t.result(a)), 'failed: ExternalWorkflowExecutionNotFound');
    const types = (await t.history(a, runA)).map((e) => e.attributes.type);
    assert.ok(types.includes('SignalExternalWorkflowExecutionFailed'), types.join());
  });

  test('cancelling B through A\'s handle ends B Canceled', async () => {
    const [a, b] = idsOnDifferentShards('cancel');
    await t.start('receiver', queue, b, []);
    await t.start('canceller', queue, a, [b]);
    assert.equal(resultOf(t.engine, await t.result(a)), 'cancel requested');
    const reply = await t.result(b);
    assert.equal(reply.executionStatus, 'Canceled');
  });
}
