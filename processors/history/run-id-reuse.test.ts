import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../topics/schemas/command/index.js';
import { applyCommand } from './apply-command.js';
import { reusedRunIdOf } from './deterministic-seed.js';
import { HistoryDriver, json, startBody, T0 } from './test-kit.js';

/** A workflow whose run run-1 completed, then run-2 completed. */
function twoClosedRuns(): HistoryDriver {
  const d = new HistoryDriver();
  for (const runId of ['run-1', 'run-2']) {
    d.start({ runId });
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('ok') }]);
  }
  return d;
}

const startOf = (runId: string, requestId: string): Command =>
  ({ requestId, namespace: 'default', workflowId: 'order-42', runId: null, replyTo: { gatewayId: 'gw', requestId: 'r' }, body: { type: 'StartWorkflowExecution', ...startBody({ runId }) } }) as Command;

test('a start naming an earlier run\'s id starts a run with a fresh id derived from both, and answers with it', () => {
  const d = twoClosedRuns();
  const t = applyCommand(d.state, startOf('run-1', 'redelivered'), T0 + 1000, d.config, { runIdUsedEarlier: true });
  const fresh = reusedRunIdOf('run-1', 'run-2');
  assert.equal(t.state!.executionInfo.runId, fresh);
  assert.ok(t.events.every((e) => e.runId === fresh), 'no event is written under run-1');
  assert.equal(t.replies[0]?.runId, fresh);
  assert.notEqual(fresh, 'run-1');
  assert.equal(applyCommand(d.state, startOf('run-1', 'redelivered'), T0 + 1000, d.config, { runIdUsedEarlier: true }).state!.executionInfo.runId, fresh, 'the same redelivery makes the same run');
});

test('without the fact, a start naming the current run\'s id is answered as a repeat and changes nothing', () => {
  const d = twoClosedRuns();
  const t = applyCommand(d.state, startOf('run-2', 'again'), T0 + 1000, d.config);
  assert.equal(t.changed, false);
  assert.equal(t.replies[0]?.kind, 'StartAccepted');
  assert.equal(t.replies[0]?.runId, 'run-2');
});
