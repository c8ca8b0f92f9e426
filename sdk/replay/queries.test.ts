import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { EvictionRequiredError } from './errors.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, nextTask, payload } from './test-harness.js';
import { WorkflowRun, type QueryResult } from './workflow-run.js';

const QUERY_WORKFLOWS = fileURLToPath(new URL('../../test/workflows/queries.ts', import.meta.url));
let bundle: Promise<WorkflowBundle> | undefined;
const queryBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: QUERY_WORKFLOWS }));

function answer(result: QueryResult): unknown {
  if (result.type !== 'answered') assert.fail(`query failed: ${result.failure.code}: ${result.failure.message}`);
  return decode(result.result);
}

function failure(result: QueryResult): { code: string; message: string } {
  if (result.type !== 'failed') assert.fail(`query answered ${JSON.stringify(decode(result.result))}`);
  return result.failure;
}

/** A basket run that has run its first task, with its history builder. */
async function openBasket(options: { deadlockTimeoutMs?: number } = {}): Promise<{ h: HistoryBuilder; run: WorkflowRun }> {
  const h = new HistoryBuilder({ workflowType: 'basket' }).start('ann');
  const run = WorkflowRun.create(await queryBundle(), h.identity, { logger: () => undefined, ...options });
  assert.deepEqual(commandsOf(nextTask(run, h)), []);
  h.completeTask([]);
  return { h, run };
}

test('a query answers from the run between tasks and sees a signal once the task carrying it ran', async () => {
  const { h, run } = await openBasket();
  assert.deepEqual(answer(run.query('status', [])), { stage: 'collecting', items: [] });
  h.signal('addItem', 'apple').scheduleTask();
  // The signal is in history but no task ran it yet: the cached run does not know it.
  assert.deepEqual(answer(run.query('status', [])), { stage: 'collecting', items: [] });
  commandsOf(nextTask(run, h));
  assert.deepEqual(answer(run.query('status', [])), { stage: 'collecting', items: ['apple'] });
  assert.equal(answer(run.query('item', [payload(0)])), 'apple');
  assert.equal(answer(run.query('item', [payload(3)])), null);
  run.dispose();
});

test('an unknown query name fails with UnknownQuery naming the workflow and listing the known queries', async () => {
  const { run } = await openBasket();
  const { code, message } = failure(run.query('stauts', []));
  assert.equal(code, 'UnknownQuery');
  assert.match(message, /workflow basket \(workflowId basket-1\) has no handler for query 'stauts'/);
  assert.match(message, /known queries: asyncCount, forever, item, lucky, private, sleepy, status$/);
  run.dispose();
});

test('a handler that throws, returns a promise, starts a timer or draws a random number fails the query with a message saying so', async () => {
  const { run } = await openBasket();
  const thrown = failure(run.query('private', []));
  assert.equal(thrown.code, 'QueryFailed');
  assert.match(thrown.message, /query handler 'private' failed: the basket of ann is private/);
  assert.match(failure(run.query('asyncCount', [])).message, /query handler 'asyncCount' returned a promise: query handlers must be synchronous/);
  // The handler caught the refusal and returned normally: the query fails all the same.
  assert.match(failure(run.query('sleepy', [])).message, /query handler 'sleepy' tried to start a timer: query handlers must only read/);
  assert.match(failure(run.query('lucky', [])).message, /query handler 'lucky' tried to draw a random number/);
  run.dispose();
});

test('refused queries leave no trace: the run produces the same commands and result as a run never queried', async () => {
  const checkoutThen = (h: HistoryBuilder) => h.signal('addItem', 'pear').signal('checkout').scheduleTask();
  const queried = await openBasket();
  for (const name of ['asyncCount', 'sleepy', 'lucky', 'private', 'status']) queried.run.query(name, []);
  checkoutThen(queried.h);
  const afterQueries = commandsOf(nextTask(queried.run, queried.h));

  const quiet = await openBasket();
  checkoutThen(quiet.h);
  const neverQueried = commandsOf(nextTask(quiet.run, quiet.h));
  assert.deepEqual(afterQueries, neverQueried);
  const [close] = afterQueries as [WorkflowCommand];
  assert.equal(close.type, 'CompleteWorkflowExecution');
  const result = decode(close.type === 'CompleteWorkflowExecution' ? close.result : null) as { items: string[]; ticket: string };
  assert.deepEqual(result.items, ['pear']);
  // The completed run still answers, with its final state.
  assert.deepEqual(answer(queried.run.query('status', [])), { stage: 'checked out', items: ['pear'] });
  queried.run.dispose();
  quiet.run.dispose();
});

test('a query handler that loops fails the query at the deadlock timeout and the run must be replayed', async () => {
  const { h, run } = await openBasket({ deadlockTimeoutMs: 100 });
  const looping = failure(run.query('forever', []));
  assert.equal(looping.code, 'QueryFailed');
  assert.match(looping.message, /did not yield within 100 ms while answering a query/);
  h.signal('addItem', 'fig').scheduleTask();
  assert.throws(() => nextTask(run, h), EvictionRequiredError);
  assert.throws(() => run.query('status', []), EvictionRequiredError);
  run.dispose();
});
