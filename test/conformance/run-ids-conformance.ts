import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startRequest } from '../../sdk/client/start-options.js';
import type { Command } from '../../topics/schemas/command/index.js';
import { readHistories } from '../support/history-audit.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';

const TIMERS = fileURLToPath(new URL('../workflows/timers.ts', import.meta.url));

/**
 * Run ids are unique per workflow id: history is keyed `ns/workflowId/runId/eventId` in a
 * compacted topic, so a start redelivered after a later run began (the same request and client
 * chosen run id, under the default reuse policy) gets a fresh run id instead of writing over the
 * first run's events.
 */
export function runIdsConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false, extraWorkers: [{ taskQueue: 'timers', workflowsPath: TIMERS }] });
  });
  after(async () => t.stop());

  test('a start redelivered after a later run of its workflow id began gets a fresh run id, and the earlier runs keep their history', async () => {
    const id = uniqueName('redelivered');
    const start = { type: 'StartWorkflowExecution' as const, ...startRequest({ workflowId: id, workflowType: 'sleeper', taskQueue: 'timers', args: [10] }, t.engine.dataConverter, 'test') };
    const command: Command = { ...t.engine.client.envelope('default', id, start), requestId: uniqueName('req') };
    const first = await t.engine.client.send(command, { awaitReply: true });
    assert.equal(first?.runId, start.runId);
    assert.equal((await t.result(id)).executionStatus, 'Completed');
    const second = await t.start('sleeper', 'timers', id, [10]);
    assert.equal((await t.result(id)).executionStatus, 'Completed');
    // The first start again, as a producer's retry would write it.
    const again = await t.engine.client.send({ ...command, replyTo: { gatewayId: t.engine.replies.gatewayId, requestId: uniqueName('again') } }, { awaitReply: true });
    assert.equal(again?.kind, 'StartAccepted');
    assert.notEqual(again?.runId, start.runId, 'the redelivered start did not reuse the first run id');
    assert.notEqual(again?.runId, second);
    assert.equal((await t.result(id)).executionStatus, 'Completed');
    const runs = [...(await readHistories(t.engine.log, t.engine.catalog)).entries()].filter(([key]) => key.startsWith(`${id}/`));
    assert.equal(runs.length, 3, 'three runs');
    for (const [run, events] of runs) {
      events.forEach((e, i) => assert.equal(e.eventId, i + 1, `${run}: each event written once`));
      assert.equal(events.at(-1)?.attributes.type, 'WorkflowExecutionCompleted');
    }
  });
}
