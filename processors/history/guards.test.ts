import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from '../../topics/schemas/command/index.js';
import { applyCommand } from './apply-command.js';
import { HistoryDriver, T0 } from './test-kit.js';

describe('guards', () => {
  it('throws rather than emit an event id at or below the run’s last event id', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([]);
    // A snapshot older than the history: its next id was already written.
    const stale = { ...d.state!, executionInfo: { ...d.state!.executionInfo, nextEventId: 3 } };
    const signal = {
      requestId: 'r', namespace: 'default', workflowId: 'order-42', runId: null, replyTo: null,
      body: { type: 'SignalWorkflowExecution', signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false },
    } as Command;
    assert.throws(() => applyCommand(stale, signal, T0), /history guard: event id 3 of run run-1 is not above its last event id 4/);
  });

  it('refuses an unknown command type instead of throwing', () => {
    const d = new HistoryDriver();
    d.start();
    const bogus = { requestId: 'r', namespace: 'default', workflowId: 'order-42', runId: null, replyTo: { gatewayId: 'g', requestId: 'gw' }, body: { type: 'Bogus' } } as unknown as Command;
    const t = applyCommand(d.state, bogus, T0);
    assert.deepEqual([t.rejection?.code, t.replies[0]?.kind, t.changed], ['UnknownCommand', 'Error', false]);
    assert.equal(applyCommand(null, bogus, T0).rejection?.code, 'UnknownCommand');
  });

  it('fails the workflow task for a workflow command type it does not know', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([{ type: 'LaunchRocket' } as never]);
    const failed = d.events.at(-1)!.attributes;
    assert.deepEqual(failed.type === 'WorkflowTaskFailed' && [failed.cause, failed.failure?.message], ['UnhandledCommand', 'unknown workflow command LaunchRocket']);
  });
});
