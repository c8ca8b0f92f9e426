import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, nextTask, payload } from './test-harness.js';
import { WorkflowRun, type WorkflowTaskResult } from './workflow-run.js';

const CHILD_WORKFLOWS = fileURLToPath(new URL('./test-workflows/children.ts', import.meta.url));
let bundle: Promise<WorkflowBundle> | undefined;
const childBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: CHILD_WORKFLOWS }));

const startKid: WorkflowCommand = {
  type: 'StartChildWorkflowExecution', namespace: null, workflowId: 'kid', workflowType: 'waiter', taskQueue: null, input: [],
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy: 'Terminate',
  workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {},
};
const cancelKid: WorkflowCommand = { type: 'RequestCancelExternalWorkflowExecution', namespace: null, workflowId: 'kid', runId: null, childWorkflowOnly: true, reason: '' };
const complete = (result: string): WorkflowCommand => ({ type: 'CompleteWorkflowExecution', result: payload(result) });

async function replayAll(h: HistoryBuilder): Promise<WorkflowTaskResult> {
  const run = WorkflowRun.create(await childBundle(), h.identity, { logger: () => undefined });
  try {
    return run.activate(h.events);
  } finally {
    run.dispose();
  }
}

/** Drives a parent task by task on a cached run (answers after each task), checking a full replay agrees each time. */
async function drive(workflowType: string, args: unknown[], answers: Array<(h: HistoryBuilder) => void>, expected: WorkflowCommand[][]): Promise<void> {
  const h = new HistoryBuilder({ workflowType }).start(...args);
  const run = WorkflowRun.create(await childBundle(), h.identity);
  for (const [i, commands] of expected.entries()) {
    const result = nextTask(run, h);
    assert.deepEqual(commandsOf(result), commands, `task ${i + 1}`);
    assert.deepEqual(await replayAll(h), result, `full replay of task ${i + 1}`);
    h.completeTask(commands);
    answers[i]?.(h);
  }
  run.dispose();
}

test('executeChild resolves with the child\'s result after ChildWorkflowExecutionStarted and …Completed', async () => {
  await drive('runsChild', [], [(h) => h.childStarted('kid').childClosed('kid', 'Completed', 'done').scheduleTask()], [[startKid], [complete('result: done')]]);
});

test('a child terminated from outside rejects with a ChildWorkflowFailure caused by a TerminatedFailure naming the run', async () => {
  await drive('runsChild', [], [(h) => h.childStarted('kid').childClosed('kid', 'Terminated').scheduleTask()], [[startKid], [complete('terminated: kid-run')]]);
});

test('StartChildWorkflowExecutionFailed rejects startChild with WorkflowExecutionAlreadyStartedError', async () => {
  await drive('runsChild', [], [(h) => h.childStartFailed('kid').scheduleTask()], [[startKid], [complete('already started: kid')]]);
});

test('cancellation type ABANDON: cancelling the scope rejects at once and sends the child nothing', async () => {
  await drive('cancelsChild', ['ABANDON'], [(h) => h.childStarted('kid').scheduleTask()], [[startKid], [complete('cancelled')]]);
});

test('cancellation type TRY_CANCEL: the child is asked to cancel and the parent does not wait', async () => {
  await drive('cancelsChild', ['TRY_CANCEL'], [(h) => h.childStarted('kid').scheduleTask()], [[startKid], [cancelKid, complete('cancelled')]]);
});

test('cancellation type WAIT_CANCELLATION_REQUESTED: the parent waits until the child recorded the request', async () => {
  await drive(
    'cancelsChild', ['WAIT_CANCELLATION_REQUESTED'],
    [(h) => h.childStarted('kid').scheduleTask(), (h) => h.externalAnswered('kid').scheduleTask()],
    [[startKid], [cancelKid], [complete('cancelled')]],
  );
});

test('cancellation type WAIT_CANCELLATION_COMPLETED: the parent waits until the child ended Canceled', async () => {
  await drive(
    'cancelsChild', ['WAIT_CANCELLATION_COMPLETED'],
    [(h) => h.childStarted('kid').scheduleTask(), (h) => h.externalAnswered('kid').scheduleTask(), (h) => h.childClosed('kid', 'Canceled').scheduleTask()],
    [[startKid], [cancelKid], [], [complete('cancelled')]],
  );
});
