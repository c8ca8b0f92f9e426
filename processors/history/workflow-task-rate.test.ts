import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { HistoryDriver, T0 } from './test-kit.js';
import type { WorkflowTaskIntent } from './transition.js';

/** A namespace limit of 3 workflow tasks per second (the default namespace here). */
const config: HistoryConfig = { ...defaultHistoryConfig, namespaceLimits: { default: { maxWorkflowTasksPerSecond: 3 } } };

const workflowTasks = (d: HistoryDriver) => d.tasks.filter((t): t is WorkflowTaskIntent => t.type === 'WorkflowTask');

/** Completes the last task with a 1 ms timer and fires it: the hot loop of a `sleep(1)` workflow. */
function tightLoopStep(d: HistoryDriver): void {
  d.completeWorkflowTask([{ type: 'StartTimer', timerId: `t${d.events.length}`, startToFireTimeoutMs: 1 }]);
  d.advance(1);
}

describe('workflow tasks per second per workflow', () => {
  it('defaults to 200 per second', () => {
    assert.equal(defaultHistoryConfig.limits.maxWorkflowTasksPerSecond, 200);
  });

  it('sends at most the namespace limit of tasks in a one-second window; the next waits, scheduled, for the next window', () => {
    const d = new HistoryDriver(config);
    d.start();
    tightLoopStep(d);
    tightLoopStep(d);
    assert.equal(workflowTasks(d).length, 3);
    tightLoopStep(d);
    assert.equal(workflowTasks(d).length, 3, 'the fourth task in the same second is held back');
    assert.equal(d.state!.workflowTaskDispatched, false);
    assert.equal(d.state!.pendingWorkflowTask!.scheduledTime, T0 + 1000);
    assert.equal(d.types().at(-1), 'WorkflowTaskScheduled', 'its Scheduled event is written at once');

    d.advance(T0 + 999 - d.now);
    assert.equal(workflowTasks(d).length, 3);
    d.advance(1);
    assert.equal(workflowTasks(d).length, 4);
    assert.deepEqual([d.state!.workflowTaskWindowStartTime, d.state!.workflowTaskWindowCount], [T0 + 1000, 1]);
  });

  it('leaves other namespaces at the default limit', () => {
    const d = new HistoryDriver({ ...defaultHistoryConfig, namespaceLimits: { other: { maxWorkflowTasksPerSecond: 1 } } });
    d.start();
    for (let i = 0; i < 5; i++) tightLoopStep(d);
    assert.equal(workflowTasks(d).length, 6);
  });
});
