import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryTargetOf } from './query-target.js';

const state = (bufferedEvents: unknown[]) => ({
  executionInfo: { runId: 'r', taskQueue: 'q', lastEventId: 7, lastWorkflowTaskCompletedEventId: 4 },
  pendingWorkflowTask: { scheduledEventId: 7 },
  bufferedEvents,
});

test('a query target says so when events wait behind the in-flight workflow task, so the query locates the run again', () => {
  assert.deepEqual(queryTargetOf(state([{ type: 'WorkflowExecutionSignaled' }])), {
    runId: 'r', taskQueue: 'q', lastEventId: 7, workflowTaskScheduledEventId: 7, eventsBuffered: true,
  });
  assert.equal(queryTargetOf(state([])).eventsBuffered, false);
});
