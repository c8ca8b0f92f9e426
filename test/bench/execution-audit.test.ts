import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditExecutions, type AuditEvent } from './execution-audit.js';

const RUN = 'run-1';
const event = (eventId: number, eventTime: number, attributes: AuditEvent['attributes']): AuditEvent => ({ eventId, eventTime, runId: RUN, attributes });

/** A threeSteps-like history with one activity, completed at `completedAt`, returning `result`. */
function history(completedAt: number, result: unknown = 'ok'): AuditEvent[] {
  return [
    event(1, 0, { type: 'WorkflowExecutionStarted' }),
    event(2, 1, { type: 'ActivityTaskScheduled', activityId: '1' }),
    event(3, completedAt, { type: 'ActivityTaskCompleted', scheduledEventId: 2, identity: '7@host' }),
    event(4, completedAt + 5, { type: 'WorkflowExecutionCompleted', result }),
  ];
}
const execution = (workflowId: string, startedAt: number, pid = 7) => ({ workflowId, runId: RUN, activityId: '1', attempt: 1, startedAt, pid });

test('an execution that began after the completion was recorded is reported; earlier re-runs are counted as legitimate', () => {
  const audit = auditExecutions(
    [{ workflowId: 'a', events: history(100) }, { workflowId: 'b', events: history(100) }],
    [execution('a', 50), execution('a', 90), execution('b', 50), execution('b', 101, 8), execution('other', 500)],
    'ok',
  );
  assert.equal(audit.completedCorrectly, 2);
  assert.equal(audit.completedActivities, 2);
  assert.equal(audit.executions, 4, 'executions of workflows outside the run are ignored');
  assert.equal(audit.rerunsBeforeCompletion, 1);
  assert.deepEqual(audit.rerunsAfterCompletion, [
    { workflowId: 'b', activityId: '1', attempt: 1, startedAt: 101, pid: 8, completedEventTime: 100, completedBy: '7@host', lateByMs: 1, earlierExecutions: [{ startedAt: 50, pid: 7 }] },
  ]);
  assert.equal(audit.completedWithoutExecution, 0);
});

test('missing, unfinished, wrongly finished and doubly completed workflows are problems', () => {
  const open = history(100).slice(0, 3);
  const doubled = [...history(100).slice(0, 3), event(4, 101, { type: 'ActivityTaskCompleted', scheduledEventId: 2 }), event(5, 102, { type: 'WorkflowExecutionCompleted', result: 'ok' })];
  const gap = history(100).filter((e) => e.eventId !== 3);
  const audit = auditExecutions(
    [
      { workflowId: 'missing', events: null },
      { workflowId: 'open', events: open },
      { workflowId: 'wrong', events: history(100, 'ko') },
      { workflowId: 'doubled', events: doubled },
      { workflowId: 'gap', events: gap },
    ],
    [execution('open', 50), execution('wrong', 50), execution('doubled', 50)],
    'ok',
  );
  assert.equal(audit.completedCorrectly, 0);
  assert.deepEqual(audit.problems.map((p) => p.workflowId), ['missing', 'open', 'wrong', 'doubled', 'gap']);
  assert.match(audit.problems[1]!.problem, /last event is ActivityTaskCompleted/);
  assert.match(audit.problems[3]!.problem, /completed 2 times/);
  assert.equal(audit.completedWithoutExecution, 0);
});

test('a completed activity without any recorded execution is counted (the execution log is not wired)', () => {
  const audit = auditExecutions([{ workflowId: 'a', events: history(100) }], [{ ...execution('a', 50), activityId: '9' }], 'ok');
  assert.equal(audit.completedWithoutExecution, 1);
  assert.equal(audit.executionsOfUnscheduledActivities, 1);
});
