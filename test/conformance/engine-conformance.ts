import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { OrderResult } from '../../examples/order/workflows.js';
import type { TripResult } from '../../examples/travel/workflows.js';
import { Worker } from '../../sdk/worker/worker.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/** Engine behaviour every backend must show, end to end: engine, workers, example workflows. */

const TIMER_WORKFLOWS = fileURLToPath(new URL('../workflows/timers.ts', import.meta.url));
const SIGNAL_RACE_WORKFLOWS = fileURLToPath(new URL('../workflows/signal-race.ts', import.meta.url));
const types = (events: HistoryEvent[]) => events.map((e) => e.attributes.type);

const order = (id: string, overrides: Record<string, unknown> = {}) => ({
  orderId: id,
  sku: 'book',
  quantity: 1,
  amountCents: 2500,
  phone: '+100',
  packTimeout: '1h',
  ratingDelay: '1s',
  ...overrides,
});

/** Registers the engine conformance tests for one backend. */
export function engineConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, { extraWorkers: [{ taskQueue: 'timers', workflowsPath: TIMER_WORKFLOWS }] });
  });
  after(async () => t.stop());

  test('the order workflow reserves stock, charges, waits for the seller, ships, sleeps and asks for a rating', async () => {
    const id = uniqueName('order');
    const runId = await t.start('order', 'orders', id, [order(id)]);
    await waitFor('the workflow to wait for the seller', async () => types(await t.history(id, runId)).includes('TimerStarted'));
    await t.signal(id, 'sellerPacked', [{ parcelId: 'p-7' }]);
    const result = resultOf<OrderResult>(t.engine, await t.result(id));
    assert.deepEqual(result, { orderId: id, status: 'shipped', shipmentId: `shipment-${id}-p-7`, compensated: [] });
    // The result reply commits with the closing events; the owner's index follows right after.
    const history = await waitFor('the closed history', async () => {
      const events = await t.history(id, runId);
      return types(events).at(-1) === 'WorkflowExecutionCompleted' ? events : undefined;
    });
    const scheduled = history.flatMap((e) => (e.attributes.type === 'ActivityTaskScheduled' ? [e.attributes.activityType] : []));
    assert.deepEqual(scheduled, ['reserveStock', 'chargeCard', 'createShipment', 'sendRatingSms']);
    assert.equal(types(history).filter((x) => x === 'WorkflowExecutionSignaled').length, 1);
    assert.deepEqual(types(history).filter((x) => x.startsWith('Timer')), ['TimerStarted', 'TimerCanceled', 'TimerStarted', 'TimerFired']);
    history.forEach((e, i) => assert.equal(e.eventId, i + 1, 'event ids are contiguous from 1'));
  });

  test('an order whose card is declined releases the stock it reserved', async () => {
    const id = uniqueName('order');
    await t.start('order', 'orders', id, [order(id, { amountCents: 0 })]);
    const result = resultOf<OrderResult>(t.engine, await t.result(id));
    assert.deepEqual(result, { orderId: id, status: 'cancelled', compensated: ['releaseStock'] });
  });

  test('the travel saga compensates in reverse order when payment fails, and reports a failed compensation', async () => {
    const ok = uniqueName('trip');
    await t.start('bookTrip', 'travel', ok, [{ tripId: ok }]);
    assert.equal(resultOf<TripResult>(t.engine, await t.result(ok)).booked, true);

    const failing = uniqueName('trip');
    await t.start('bookTrip', 'travel', failing, [{ tripId: failing, failAt: 'payment', failCompensation: 'cancelFlight' }]);
    const result = resultOf<TripResult>(t.engine, await t.result(failing));
    assert.equal(result.booked, false);
    assert.match(result.failedStep!, /^payment/);
    assert.deepEqual(result.compensated, ['cancelCar', 'cancelHotel']);
    assert.deepEqual(result.compensationFailures.map((f) => f.step), ['cancelFlight']);
  });

  test('a workflow sleeping 5 s is woken once, and not before 5 s have passed', async () => {
    const id = uniqueName('sleeper');
    const runId = await t.start('sleeper', 'timers', id, [5_000]);
    const result = resultOf<{ sleptMs: number }>(t.engine, await t.result(id));
    assert.ok(result.sleptMs >= 5_000, `workflow time advanced ${result.sleptMs} ms`);
    const history = await waitFor('the closed history', async () => {
      const events = await t.history(id, runId);
      return types(events).at(-1) === 'WorkflowExecutionCompleted' ? events : undefined;
    });
    const started = history.find((e) => e.attributes.type === 'TimerStarted')!;
    const fired = history.filter((e) => e.attributes.type === 'TimerFired');
    assert.equal(fired.length, 1);
    assert.ok(fired[0]!.eventTime - started.eventTime >= 5_000, `fired after ${fired[0]!.eventTime - started.eventTime} ms`);
  });

  test('a signal sent while the workflow task that completes the run is in flight is delivered, not lost', async () => {
    const id = uniqueName('race');
    const queue = uniqueName('race-queue');
    // No worker yet: the first workflow task stays in flight while the signal arrives.
    const runId = await t.start('collectNotes', queue, id, []);
    await t.signal(id, 'note', ['hello']);
    await waitFor('the signal to be buffered', async () => ((await t.engine.describe('default', id))?.bufferedEvents.length ?? 0) > 0);
    const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: SIGNAL_RACE_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    try {
      assert.deepEqual(resultOf<string[]>(t.engine, await t.result(id)), ['hello']);
      const history = await waitFor('the closed history', async () => {
        const events = await t.history(id, runId);
        return types(events).at(-1) === 'WorkflowExecutionCompleted' ? events : undefined;
      });
      const failed = history.find((e) => e.attributes.type === 'WorkflowTaskFailed');
      assert.equal(failed?.attributes.type === 'WorkflowTaskFailed' && failed.attributes.cause, 'UnhandledCommand');
      assert.ok(types(history).indexOf('WorkflowExecutionSignaled') > history.indexOf(failed!), 'the signal follows the rejected completion');
    } finally {
      await worker.stop(1_000);
    }
  });
}
