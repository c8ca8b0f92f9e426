import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, payload } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const UPDATE_WORKFLOWS = fileURLToPath(new URL('../../test/workflows/updates.ts', import.meta.url));
let bundle: Promise<WorkflowBundle> | undefined;
const updateBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: UPDATE_WORKFLOWS }));

const message = (updateId: string, name: string, ...args: unknown[]): UpdateRequestMessage => ({
  messageId: `${updateId}/request`, protocolInstanceId: updateId, sequencingEventId: 4,
  request: { updateId, identity: 'test', name, header: {}, args: args.map(payload) },
});

/** A cart run that ran its first task, with its history builder. */
async function openCart(): Promise<{ h: HistoryBuilder; run: WorkflowRun }> {
  const h = new HistoryBuilder({ workflowType: 'cart' }).start();
  const run = WorkflowRun.create(await updateBundle(), h.identity, { logger: () => undefined });
  assert.deepEqual(commandsOf(run.activate(h.since(run.lastEventId))), []);
  h.completeTask([]);
  return { h, run };
}

const bodies = (commands: WorkflowCommand[]) => commands.map((c) => (c.type === 'ProtocolMessage' ? `${c.body.type}:${c.protocolInstanceId}` : c.type));

test('a live update is accepted and answered in the same task with the handler result', async () => {
  const { h, run } = await openCart();
  h.scheduleTask();
  const commands = commandsOf(run.activate(h.since(run.lastEventId), [message('u1', 'addItem', 'book')]));
  assert.deepEqual(bodies(commands), ['UpdateAcceptance:u1', 'UpdateResponse:u1']);
  const response = commands[1]!;
  assert.ok(response.type === 'ProtocolMessage' && response.body.type === 'UpdateResponse');
  assert.equal(decode(response.body.result), 1);
  const acceptance = commands[0]!;
  assert.ok(acceptance.type === 'ProtocolMessage' && acceptance.body.type === 'UpdateAcceptance');
  assert.equal(acceptance.body.acceptedRequest.name, 'addItem', 'the acceptance names the request it accepts');
});

test('a validator that throws and an update without a handler are rejected with their reasons, nothing else', async () => {
  const { h, run } = await openCart();
  h.scheduleTask();
  const commands = commandsOf(run.activate(h.since(run.lastEventId), [message('u1', 'addItem', ''), message('u2', 'removeItem', 'book')]));
  assert.deepEqual(bodies(commands), ['UpdateRejection:u1', 'UpdateRejection:u2']);
  const [invalid, unknown] = commands.map((c) => (c.type === 'ProtocolMessage' && c.body.type === 'UpdateRejection' ? c.body.failure : null));
  assert.match(invalid!.message, /an item needs a name/);
  assert.equal(unknown!.code, 'UnknownUpdate');
  assert.match(unknown!.message, /no handler for update 'removeItem'; known updates: addItem, checkout, echo, sneaky$/);
});

test('a validator runs read-only: drawing a random number rejects the update and leaves the run untouched', async () => {
  const { h, run } = await openCart();
  h.scheduleTask();
  const commands = commandsOf(run.activate(h.since(run.lastEventId), [message('u1', 'sneaky')]));
  assert.deepEqual(bodies(commands), ['UpdateRejection:u1']);
  const rejection = commands[0]!;
  assert.ok(rejection.type === 'ProtocolMessage' && rejection.body.type === 'UpdateRejection');
  assert.match(rejection.body.failure.message, /tried to draw a random number/);
});

test('replay delivers accepted updates from their events, skipping the validator, and the run keeps their effect', async () => {
  const { h, run } = await openCart();
  h.scheduleTask();
  const live = commandsOf(run.activate(h.since(run.lastEventId), [message('u1', 'addItem', 'book')]));
  h.completeTask(live).signal('close').scheduleTask();
  assert.deepEqual(h.events.slice(-5, -2).map((e) => e.attributes.type), ['WorkflowTaskCompleted', 'WorkflowExecutionUpdateAccepted', 'WorkflowExecutionUpdateCompleted']);
  const replayed = WorkflowRun.create(await updateBundle(), h.identity, { logger: () => undefined });
  const commands = commandsOf(replayed.activate(h.events));
  const complete = commands.at(-1)!;
  assert.ok(complete.type === 'CompleteWorkflowExecution', bodies(commands).join());
  assert.deepEqual(decode(complete.result), ['book'], 'the replayed update handler added the item again');
});
