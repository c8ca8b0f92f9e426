import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import type { TripResult } from '../../examples/travel/workflows.js';
import { WorkflowClient, type WorkflowExecutionInfo } from '../../sdk/client/workflow-client.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * The saga walkthrough end to end on one backend: a trip whose payment fails and one of whose
 * compensations fails is reported for manual intervention, and a list query finds exactly that run.
 */
export function sagaConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let address: string;

  before(async () => {
    t = await startTestEngine(backend);
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
  });
  after(async () => {
    server.close();
    await t.stop();
  });

  test('a trip whose payment and one compensation fail reports both lists, and only that run is found by RequiresIntervention = true', async () => {
    const broken = uniqueName('trip-broken');
    const clean = uniqueName('trip-clean');
    const booked = uniqueName('trip-booked');
    await client.start('bookTrip', { workflowId: broken, taskQueue: 'travel', args: [{ tripId: broken, failAt: 'payment', failCompensation: 'cancelFlight' }] });
    await client.start('bookTrip', { workflowId: clean, taskQueue: 'travel', args: [{ tripId: clean, failAt: 'payment' }] });
    await client.start('bookTrip', { workflowId: booked, taskQueue: 'travel', args: [{ tripId: booked }] });
    const result = (await client.getHandle(broken).result<TripResult>()).result!;
    assert.equal(result.booked, false);
    assert.equal(result.failedStep, `payment: payment failed for trip ${broken}`);
    assert.deepEqual(result.compensated, ['cancelCar', 'cancelHotel']);
    assert.deepEqual(result.compensationFailures, [{ step: 'cancelFlight', error: `cancelFlight failed for trip ${broken}` }]);
    const cleanResult = (await client.getHandle(clean).result<TripResult>()).result!;
    assert.deepEqual([cleanResult.compensated, cleanResult.compensationFailures], [['cancelCar', 'cancelFlight', 'cancelHotel'], []]);
    assert.equal((await client.getHandle(booked).result<TripResult>()).result?.booked, true);

    const mine = `WorkflowId IN ('${broken}', '${clean}', '${booked}')`;
    await waitFor('the three runs to be closed in visibility', async () => (await client.count(`${mine} AND ExecutionStatus = 'Completed'`)) === 3, 30_000);
    const runs: WorkflowExecutionInfo[] = [];
    for await (const run of client.list({ query: `${mine} AND RequiresIntervention = true` })) runs.push(run);
    assert.deepEqual(runs.map((r) => r.workflowId), [broken]);
    assert.deepEqual(runs[0]?.searchAttributes.RequiresIntervention, { type: 'Bool', value: true });
    assert.equal(await client.count(`${mine} AND RequiresIntervention = true`), 1);

    const query = encodeURIComponent(`RequiresIntervention = true AND ${mine}`);
    const response = await fetch(`${address}/api/v1/namespaces/default/workflows?query=${query}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { executions: Array<{ workflowId: string }> };
    assert.deepEqual(body.executions.map((e) => e.workflowId), [broken]);
  });
}
