import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { Worker } from '../../sdk/worker/worker.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { defaultHistoryConfig } from '../../processors/history/config.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Child workflows through the SDK, on one backend with 8 shards: parents and children on different shards. */

const CHILD_WORKFLOWS = fileURLToPath(new URL('../workflows/children.ts', import.meta.url));
const SHARDS = 8;
/** Lowered for the limit test; every other test has at most one child pending per parent. */
const MAX_PENDING_CHILDREN = 3;

/** Registers the child-workflow tests for one backend. */
export function childrenConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let worker: Worker;
  let server: Server;
  let address: string;
  const queue = uniqueName('children');

  before(async () => {
    const history = { ...defaultHistoryConfig, namespaceLimits: { default: { maxPendingChildWorkflows: MAX_PENDING_CHILDREN } } };
    t = await startTestEngine(backend, { workers: false, shards: SHARDS, engine: { history } });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: CHILD_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    server = await serveGateway(t.engine);
    address = addressOf(server);
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  /** A parent id and a child id that live on different shards. */
  const idsOnDifferentShards = (label: string): [string, string] => {
    const parent = uniqueName(`${label}-parent`);
    for (let i = 0; ; i++) {
      const child = `${parent}-child${i}`;
      if (t.engine.catalog.shardOf('default', parent) !== t.engine.catalog.shardOf('default', child)) return [parent, child];
    }
  };
  const types = (events: HistoryEvent[]) => events.map((e) => e.attributes.type);

  test('a parent runs a child on another shard and gets its result; the child records its parent', async () => {
    const [parent, child] = idsOnDifferentShards('result');
    const parentRun = await t.start('parentOfDoubler', queue, parent, [child, 21]);
    assert.equal(resultOf(t.engine, await t.result(parent)), 42);
    const parentHistory = await t.history(parent, parentRun);
    const started = parentHistory.find((e) => e.attributes.type === 'ChildWorkflowExecutionStarted');
    assert.ok(started?.attributes.type === 'ChildWorkflowExecutionStarted');
    assert.ok(types(parentHistory).includes('ChildWorkflowExecutionCompleted'), types(parentHistory).join());
    const childStarted = (await t.history(child, started.attributes.workflowExecution.runId!))[0]!.attributes;
    assert.ok(childStarted.type === 'WorkflowExecutionStarted');
    assert.deepEqual(childStarted.parent, { namespace: 'default', workflowId: parent, runId: parentRun, initiatedEventId: started.attributes.initiatedEventId });
  });

  test('describe over HTTP shows the parent\'s pending child and the child\'s parent', async () => {
    const [parent, child] = idsOnDifferentShards('describe');
    const parentRun = await t.start('parentWaitsForChild', queue, parent, [child]);
    const describe = async (id: string) => (await fetch(`${address}/api/v1/namespaces/default/workflows/${id}`)).json() as Promise<{
      pendingChildren: Array<{ workflowId: string; runId: string | null; parentClosePolicy: string; initiatedEventId: number }>;
      executionInfo: { parent: { namespace: string; workflowId: string; runId: string; initiatedEventId: number } | null };
    }>;
    const pending = await waitFor('the child to start', async () => (await describe(parent)).pendingChildren.find((c) => c.runId !== null));
    assert.equal(pending.workflowId, child);
    assert.equal(pending.parentClosePolicy, 'Terminate');
    const { initiatedEventId } = pending;
    assert.deepEqual((await describe(child)).executionInfo.parent, { namespace: 'default', workflowId: parent, runId: parentRun, initiatedEventId });
    await t.signal(child, 'release', []);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'released');
    assert.deepEqual((await describe(parent)).pendingChildren, []);
  });

  test('a child that continues as new stays the parent\'s child (workflowInfo().parent) and the parent gets the last run\'s result', async () => {
    const [parent, child] = idsOnDifferentShards('chain');
    await t.start('parentOfChained', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), `last run, child of ${parent}`);
  });

  test('a parent signals its child through the child handle and gets the result the signal unblocked', async () => {
    const [parent, child] = idsOnDifferentShards('signal');
    await t.start('parentSignalsChild', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'run id known, released');
  });

  test('a failed child reaches the parent as a ChildWorkflowFailure whose cause is the child\'s ApplicationFailure', async () => {
    const [parent, child] = idsOnDifferentShards('failure');
    await t.start('parentOfRejecter', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'ChildWorkflowFailure <- InvoiceRejected: invoice rejected');
    assert.equal((await t.result(child)).executionStatus, 'Failed');
  });

  test('a child that times out reaches the parent as a ChildWorkflowFailure caused by a TimeoutFailure', async () => {
    const [parent, child] = idsOnDifferentShards('timeout');
    await t.start('parentOfSlowChild', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'child timed out');
    assert.equal((await t.result(child)).executionStatus, 'TimedOut');
  });

  test('starting a child under a running workflow id throws WorkflowExecutionAlreadyStartedError and leaves that run alone', async () => {
    const [parent, child] = idsOnDifferentShards('taken');
    const otherRun = await t.start('waitForRelease', queue, child, []);
    const parentRun = await t.start('parentOfTakenId', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), `already started: ${child}`);
    assert.ok(types(await t.history(parent, parentRun)).includes('StartChildWorkflowExecutionFailed'));
    await t.signal(child, 'release', []);
    const reply = await t.result(child);
    assert.equal(reply.runId, otherRun);
    assert.equal(resultOf(t.engine, reply), 'released');
  });

  test('cancelling the scope of a child cancels the child; the parent sees it end Canceled', async () => {
    const [parent, child] = idsOnDifferentShards('cancel');
    await t.start('parentCancelsChild', queue, parent, [child]);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'child cancelled');
    assert.equal((await t.result(child)).executionStatus, 'Canceled');
  });

  test('parent close policy TERMINATE: the child is terminated when the parent completes', async () => {
    const [parent, child] = idsOnDifferentShards('terminate');
    await t.start('parentThatLeaves', queue, parent, [child, 'TERMINATE']);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'left');
    assert.equal((await t.result(child)).executionStatus, 'Terminated');
  });

  test('parent close policy REQUEST_CANCEL: the child is asked to cancel and ends Canceled', async () => {
    const [parent, child] = idsOnDifferentShards('request-cancel');
    await t.start('parentThatLeaves', queue, parent, [child, 'REQUEST_CANCEL']);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'left');
    assert.equal((await t.result(child)).executionStatus, 'Canceled');
  });

  test('parent close policy ABANDON: the child runs on after the parent completed and finishes on its own', async () => {
    const [parent, child] = idsOnDifferentShards('abandon');
    const parentRun = await t.start('parentThatLeaves', queue, parent, [child, 'ABANDON']);
    assert.equal(resultOf(t.engine, await t.result(parent)), 'left');
    const started = (await t.history(parent, parentRun)).find((e) => e.attributes.type === 'ChildWorkflowExecutionStarted');
    assert.ok(started?.attributes.type === 'ChildWorkflowExecutionStarted');
    const childRun = started.attributes.workflowExecution.runId!;
    assert.equal((await t.engine.describe('default', child))?.executionInfo.parent?.workflowId, parent, 'describe names the parent');
    assert.ok(!types(await t.history(child, childRun)).some((type) => type === 'WorkflowExecutionTerminated' || type === 'WorkflowExecutionCancelRequested'));
    await t.signal(child, 'release', []);
    assert.equal(resultOf(t.engine, await t.result(child)), 'released');
  });

  test('passing the pending-children limit fails the parent\'s workflow task with PendingChildWorkflowsLimitExceeded', async () => {
    const parent = uniqueName('limit-parent');
    const parentRun = await t.start('parentOfMany', queue, parent, [uniqueName('limit-child'), MAX_PENDING_CHILDREN + 1]);
    let failed: HistoryEvent | undefined;
    for (let i = 0; i < 150 && !failed; i++) {
      failed = (await t.history(parent, parentRun)).find((e) => e.attributes.type === 'WorkflowTaskFailed');
      if (!failed) await delay(200);
    }
    assert.ok(failed?.attributes.type === 'WorkflowTaskFailed', 'the workflow task failed');
    assert.equal(failed.attributes.cause, 'BadStartChildExecutionAttributes');
    assert.equal(failed.attributes.failure?.code, 'PendingChildWorkflowsLimitExceeded');
    assert.ok(!types(await t.history(parent, parentRun)).includes('StartChildWorkflowExecutionInitiated'), 'no child was started');
    await t.engine.client.send(t.engine.client.envelope('default', parent, { type: 'TerminateWorkflowExecution', reason: 'test over', details: null, identity: 'test' }, { awaitReply: false }));
  });
}
