import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from 'logbook/testing';
import { Worker } from 'logbook/worker';
import * as activities from './activities.js';
import { example } from './workflows.js';

let env: TestWorkflowEnvironment;

before(async () => {
  env = await TestWorkflowEnvironment.createLocal();
});
after(async () => {
  await env.teardown();
});

test('the hello-world workflow greets through its activity, run by a worker on a test environment', async () => {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: 'test',
    workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
    activities,
  });
  const result = await worker.runUntil(env.client.workflow.execute(example, { args: ['Temporal'], workflowId: 'test', taskQueue: 'test' }));
  assert.equal(result, 'Hello, Temporal!');
});

test('the workflow with its activity mocked, as Temporal users test it', async () => {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: 'test-mocked',
    workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
    activities: { greet: async (name: string) => `Hi, ${name}.` },
  });
  const result = await worker.runUntil(env.client.workflow.execute(example, { args: ['mock'], workflowId: 'test-mocked', taskQueue: 'test-mocked' }));
  assert.equal(result, 'Hi, mock.');
});
