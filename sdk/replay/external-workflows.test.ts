import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, fullReplay, nextTask, payload, testBundle } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const signalB: WorkflowCommand = {
  type: 'SignalExternalWorkflowExecution', namespace: null, workflowId: 'b', runId: null, signalName: 'go', input: [payload(7)], childWorkflowOnly: false, header: {},
};
const cancelB: WorkflowCommand = { type: 'RequestCancelExternalWorkflowExecution', namespace: null, workflowId: 'b', runId: null, childWorkflowOnly: false, reason: '' };
const complete = (result: string): WorkflowCommand => ({ type: 'CompleteWorkflowExecution', result: payload(result) });

/** Drives `notifier('b')` task by task on a cached run, checking a full replay agrees each time. */
async function drive(answers: Array<(h: HistoryBuilder) => void>, expected: WorkflowCommand[][]): Promise<void> {
  const h = new HistoryBuilder({ workflowType: 'notifier' }).start('b');
  const run = WorkflowRun.create(await testBundle(), h.identity);
  for (const [i, commands] of expected.entries()) {
    const result = nextTask(run, h);
    assert.deepEqual(commandsOf(result), commands, `task ${i + 1}`);
    assert.deepEqual(await fullReplay(h), result, `full replay of task ${i + 1}`);
    h.completeTask(commands);
    answers[i]?.(h);
  }
  run.dispose();
}

test('getExternalWorkflowHandle: signal resolves on ExternalWorkflowExecutionSignaled, cancel on ExternalWorkflowExecutionCancelRequested, and replay matches both', async () => {
  await drive(
    [(h) => h.externalAnswered('b').scheduleTask(), (h) => h.externalAnswered('b').scheduleTask()],
    [[signalB], [cancelB], [complete('signalled and cancelled')]],
  );
});

test('getExternalWorkflowHandle: signal rejects with an ApplicationFailure of type ExternalWorkflowExecutionNotFound on SignalExternalWorkflowExecutionFailed', async () => {
  await drive(
    [(h) => h.externalAnswered('b', 'ExternalWorkflowExecutionNotFound').scheduleTask()],
    [[signalB], [complete('signal failed: ExternalWorkflowExecutionNotFound')]],
  );
});
