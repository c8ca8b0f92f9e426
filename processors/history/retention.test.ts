import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHistoryConfig, DEFAULT_RETENTION_MS, type HistoryConfig } from './config.js';
import { retentionTimersOf } from './retention.js';
import { HistoryDriver, T0 } from './test-kit.js';
import { applyTimer } from './timers.js';

const HOUR = 3_600_000;

function closedRun(config: HistoryConfig = defaultHistoryConfig): HistoryDriver {
  const d = new HistoryDriver(config);
  d.start();
  d.now = T0 + 5_000;
  d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
  return d;
}

describe('retention', () => {
  it('arms no retention deadline while the run is open', () => {
    const d = new HistoryDriver();
    d.start();
    assert.deepEqual(retentionTimersOf(d.state!, defaultHistoryConfig), []);
  });

  it("arms the deadline at close time plus the namespace's retention, 72 h by default, outside timersOf", () => {
    const d = closedRun();
    const closeTime = d.state!.executionInfo.closeTime!;
    assert.deepEqual(retentionTimersOf(d.state!, defaultHistoryConfig), [{ kind: 'Retention', fireTime: closeTime + DEFAULT_RETENTION_MS, identity: d.state!.executionInfo.runId }]);
    const ownRetention = { ...defaultHistoryConfig, namespaceRetentionMs: { [d.state!.executionInfo.namespace]: HOUR } };
    assert.equal(retentionTimersOf(d.state!, ownRetention)[0]!.fireTime, closeTime + HOUR);
    assert.equal(retentionTimersOf(d.state!, { ...defaultHistoryConfig, retentionMs: 2 * HOUR, namespaceRetentionMs: { other: HOUR } })[0]!.fireTime, closeTime + 2 * HOUR);
    assert.deepEqual(d.timers(), [], 'the other deadlines of a closed run are unchanged: none');
  });

  it('purges the workflow when due: no state, no events, the run named; never before', () => {
    const d = closedRun();
    const [ref] = retentionTimersOf(d.state!, defaultHistoryConfig);
    const early = applyTimer(d.state!, ref!, ref!.fireTime - 1);
    assert.deepEqual([early.changed, early.purgedRun ?? null], [false, null]);
    const purged = applyTimer(d.state!, ref!, ref!.fireTime);
    assert.deepEqual([purged.changed, purged.state, purged.events, purged.visibility], [true, null, [], null]);
    const info = d.state!.executionInfo;
    assert.deepEqual(purged.purgedRun, { namespace: info.namespace, workflowId: info.workflowId, runId: info.runId });
  });

  it('fires with the retention it was armed with, even if the namespace changed it since', () => {
    const d = closedRun();
    const [ref] = retentionTimersOf(d.state!, { ...defaultHistoryConfig, retentionMs: HOUR });
    assert.equal(applyTimer(d.state!, ref!, ref!.fireTime, { ...defaultHistoryConfig, retentionMs: 10 * HOUR }).changed, true);
  });

  it('does nothing for a deadline of another run (the workflow id was reused since)', () => {
    const d = closedRun();
    const [ref] = retentionTimersOf(d.state!, defaultHistoryConfig);
    const stale = applyTimer(d.state!, { ...ref!, identity: 'another-run' }, ref!.fireTime);
    assert.equal(stale.changed, false);
  });
});
