import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricTotal, stepLatencies } from './engine-figures.js';

const event = (eventId: number, type: string, eventTime: number) => ({ eventId, eventTime, attributes: { type } });

test('step latency runs from ActivityTaskScheduled to the claim of the first workflow task after the activity completed', () => {
  const history = [
    event(1, 'WorkflowExecutionStarted', 0),
    event(2, 'WorkflowTaskScheduled', 0),
    event(3, 'WorkflowTaskStarted', 2),
    event(4, 'WorkflowTaskCompleted', 3),
    event(5, 'ActivityTaskScheduled', 3),
    event(6, 'WorkflowTaskStarted', 4), // a task before the result (a signal, say) does not count
    event(7, 'ActivityTaskStarted', 10),
    event(8, 'ActivityTaskCompleted', 12),
    event(9, 'WorkflowTaskScheduled', 12),
    event(10, 'WorkflowTaskStarted', 20),
    event(11, 'WorkflowTaskCompleted', 21),
    event(12, 'ActivityTaskScheduled', 21),
    event(13, 'ActivityTaskCompleted', 30),
    event(14, 'WorkflowTaskStarted', 41),
  ];
  assert.deepEqual(stepLatencies(history), [17, 20]);
});

test('metricTotal sums every series of one metric and ignores metrics that share its prefix', () => {
  const text = [
    '# HELP logbook_x_count help',
    'logbook_x_count{shard="0"} 3',
    'logbook_x_count{shard="1"} 4.5',
    'logbook_x_count_other 100',
    'logbook_y 7',
  ].join('\n');
  assert.equal(metricTotal(text, 'logbook_x_count'), 7.5);
  assert.equal(metricTotal(text, 'logbook_z'), 0);
});
