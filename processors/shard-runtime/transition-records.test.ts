import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { InputFailure } from './input-steps.js';
import { guardHistory } from './transition-records.js';

const event = (runId: string, eventId: number) => ({ runId, eventId }) as HistoryEvent;
const stateAt = (runId: string, lastEventId: number) => ({ executionInfo: { runId, lastEventId } }) as MutableStateSnapshot;
const none = async () => false;

test('the history guard lets through events that continue the current run and a new run from 1', async () => {
  await guardHistory('default/a', stateAt('r1', 7), [event('r1', 8), event('r1', 9), event('r2', 1), event('r2', 2)], none);
  await guardHistory('default/a', null, [event('r1', 1), event('r1', 2)], none);
});

test('the history guard refuses an event id at or below the run\'s last, a gap, and a repeated id, naming the run', async () => {
  for (const events of [[event('r1', 7)], [event('r1', 9)], [event('r1', 8), event('r1', 8)]]) {
    await assert.rejects(guardHistory('default/a', stateAt('r1', 7), events, none), (e: unknown) => e instanceof InputFailure && e.step === 'guard' && /run r1 of default\/a/.test(e.message));
  }
});

test('the history guard refuses a new run whose id already has history, so it cannot overwrite an earlier run', async () => {
  await assert.rejects(guardHistory('default/a', stateAt('r1', 7), [event('r0', 1)], async (runId) => runId === 'r0'), /already has history/);
});
