import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { HISTORY_LIMIT_WARNING_MARKER } from '../../topics/schemas/history-event/engine-markers.js';
import { defaultHistoryConfig, defaultHistoryLimits, type HistoryConfig } from '../../processors/history/index.js';
import { awaitRunResult, closedRunOutcome } from '../../gateway/run-outcome.js';
import type { PollResult, PollState } from '../workflows/continue-as-new.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/** Continue-as-new and the history limits, end to end: engine, worker, workflow code. */

const POLLER_WORKFLOWS = fileURLToPath(new URL('../workflows/continue-as-new.ts', import.meta.url));
/** A namespace with low limits, so the suggestion, the warning and the hard limit come within tens of events. */
const LIMITED = 'limited';
const limited = { historyCountSuggestContinueAsNew: 20, historyCountWarn: 40, historyCountLimit: 60 };
const history: HistoryConfig = { ...defaultHistoryConfig, namespaceLimits: { [LIMITED]: limited } };

const CLOSING = new Set(['WorkflowExecutionCompleted', 'WorkflowExecutionFailed', 'WorkflowExecutionCanceled', 'WorkflowExecutionTerminated', 'WorkflowExecutionTimedOut', 'WorkflowExecutionContinuedAsNew']);

const poll = (overrides: Partial<PollState>): PollState => ({ done: 0, total: 100, perRun: 1_000_000, pauseEvery: 5, heedSuggestion: false, runs: 0, ...overrides });

/** Registers the continue-as-new tests for one backend. */
export function continueAsNewConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, {
      workers: false,
      engine: { history },
      extraWorkers: [
        { taskQueue: 'pollers', workflowsPath: POLLER_WORKFLOWS, maxConcurrentWorkflowTasks: 20 },
        { namespace: LIMITED, taskQueue: 'pollers', workflowsPath: POLLER_WORKFLOWS },
      ],
    });
  });
  after(async () => t.stop());

  const start = async (namespace: string, workflowId: string, state: PollState): Promise<string> => {
    const reply = await t.engine.client.start({ namespace, workflowId, workflowType: 'poller', taskQueue: 'pollers', args: [state] });
    assert.equal(reply.kind, 'StartAccepted', reply.failure?.message);
    return reply.runId!;
  };
  const closedHistory = (namespace: string, workflowId: string, runId: string) =>
    waitFor(`the closed history of ${runId}`, async () => {
      const events = await t.engine.history(namespace, workflowId, runId);
      const last = events.at(-1)?.attributes.type;
      return last && CLOSING.has(last) ? events : undefined;
    });
  /** Every run of a chain, first to last, with its history: each continued run names the next. */
  const chainOf = async (namespace: string, workflowId: string, firstRunId: string) => {
    const runs: { runId: string; events: HistoryEvent[] }[] = [];
    for (let runId: string | null = firstRunId; runId !== null; ) {
      const events = await closedHistory(namespace, workflowId, runId);
      runs.push({ runId, events });
      const last = events.at(-1)!.attributes;
      runId = last.type === 'WorkflowExecutionContinuedAsNew' ? last.newExecutionRunId : null;
    }
    return runs;
  };

  // The long-running poller: 20,000 iterations are local steps; what costs is a workflow
  // task per pause (a 1 ms timer every 250 iterations: 2 per run) and one per hand-over, so the
  // chain is 40 runs of about 15 events each, and the test takes seconds, not minutes.
  test('a polling workflow that loops 20,000 times, continuing as new every 500 iterations, completes in 40 runs, none near the history limits', async () => {
    const id = uniqueName('poller');
    const firstRunId = await start('default', id, poll({ total: 20_000, perRun: 500, pauseEvery: 250 }));
    const answer = await awaitRunResult(t.engine, 'default', id, { runId: firstRunId, followRuns: true, timeoutMs: 90_000 });
    assert.equal(answer.status, 'Completed');
    const result = t.engine.dataConverter.fromPayload<PollResult>(answer.result!);
    assert.deepEqual(result, { done: 20_000, runs: 40, firstExecutionRunId: firstRunId });

    const chain = await chainOf('default', id, firstRunId);
    assert.equal(chain.length, 40);
    assert.equal(chain.at(-1)!.runId, answer.runId, 'the result is the last run\'s');
    assert.equal(new Set(chain.map((r) => r.runId)).size, 40);
    for (const [i, { runId, events }] of chain.entries()) {
      events.forEach((e, n) => assert.equal(e.eventId, n + 1, `run ${i}: ids contiguous from 1`));
      assert.ok(events.length < defaultHistoryLimits.historyCountSuggestContinueAsNew, `run ${i} has ${events.length} events`);
      const started = events[0]!.attributes;
      assert.ok(started.type === 'WorkflowExecutionStarted');
      assert.equal(started.firstExecutionRunId, firstRunId);
      assert.equal(started.continuedExecutionRunId, i === 0 ? null : chain[i - 1]!.runId);
      const suggested = events.some((e) => e.attributes.type === 'WorkflowTaskStarted' && e.attributes.suggestContinueAsNew);
      assert.equal(suggested, false, `run ${runId} was never told to continue as new`);
    }
    const row = await t.engine.visibilityRow('default', id, firstRunId);
    assert.equal(row?.status, 'ContinuedAsNew');
    const first = await closedRunOutcome(t.engine, 'default', id, firstRunId);
    assert.equal(first?.newExecutionRunId, chain[1]!.runId);
  });

  test('a result wait without followRuns answers ContinuedAsNew with the next run id; the old runs keep their history and a ContinuedAsNew row', async () => {
    const id = uniqueName('poller');
    const firstRunId = await start('default', id, poll({ total: 12, perRun: 5, pauseEvery: 2 }));
    const own = await awaitRunResult(t.engine, 'default', id, { runId: firstRunId, followRuns: false, timeoutMs: 30_000 });
    assert.equal(own.status, 'ContinuedAsNew');
    assert.equal(own.runId, firstRunId);
    assert.ok(own.newExecutionRunId);
    const final = await awaitRunResult(t.engine, 'default', id, { runId: own.newExecutionRunId!, followRuns: true, timeoutMs: 30_000 });
    assert.equal(final.status, 'Completed');
    assert.equal(t.engine.dataConverter.fromPayload<PollResult>(final.result!).runs, 3);
    const chain = await chainOf('default', id, firstRunId);
    assert.deepEqual(chain.map((r) => r.events.at(-1)!.attributes.type), ['WorkflowExecutionContinuedAsNew', 'WorkflowExecutionContinuedAsNew', 'WorkflowExecutionCompleted']);
    assert.equal((await t.engine.describe('default', id))?.executionInfo.runId, final.runId);
    for (const { runId } of chain.slice(0, -1)) assert.equal((await t.engine.visibilityRow('default', id, runId))?.status, 'ContinuedAsNew');
  });

  test('the continue-as-new suggestion turns on past the suggestion limit, and a poller that heeds it keeps every run below the limit', async () => {
    const id = uniqueName('poller');
    const firstRunId = await start(LIMITED, id, poll({ total: 80, pauseEvery: 4, heedSuggestion: true }));
    const answer = await awaitRunResult(t.engine, LIMITED, id, { runId: firstRunId, followRuns: true, timeoutMs: 60_000 });
    assert.equal(answer.status, 'Completed');
    const chain = await chainOf(LIMITED, id, firstRunId);
    assert.ok(chain.length >= 3, `${chain.length} runs`);
    for (const { events } of chain.slice(0, -1)) {
      const started = events.filter((e): e is HistoryEvent<'WorkflowTaskStarted'> => e.attributes.type === 'WorkflowTaskStarted');
      assert.deepEqual(started.map((e) => e.attributes.suggestContinueAsNew), started.map((e) => e.eventId >= limited.historyCountSuggestContinueAsNew));
      assert.equal(started.at(-1)!.attributes.suggestContinueAsNew, true, 'the run continued because it was told to');
      assert.ok(events.length < limited.historyCountWarn, `${events.length} events`);
    }
  });

  test('a run that ignores the suggestion gets the warning marker and is terminated past the hard limit, with the reason', async () => {
    const id = uniqueName('poller');
    const runId = await start(LIMITED, id, poll({ total: 1_000, pauseEvery: 1 }));
    const answer = await awaitRunResult(t.engine, LIMITED, id, { runId, followRuns: true, timeoutMs: 60_000 });
    assert.equal(answer.status, 'Terminated');
    assert.match(answer.failure?.message ?? '', /history event count limit exceeded: \d+ events, the limit is 60/);
    const events = await closedHistory(LIMITED, id, runId);
    const terminated = events.at(-1)!;
    assert.ok(terminated.attributes.type === 'WorkflowExecutionTerminated');
    assert.ok(terminated.eventId > limited.historyCountLimit && terminated.eventId <= limited.historyCountLimit + 6, `terminated at event ${terminated.eventId}`);
    const markers = events.filter((e) => e.attributes.type === 'MarkerRecorded' && e.attributes.markerName === HISTORY_LIMIT_WARNING_MARKER);
    assert.equal(markers.length, 1);
    assert.ok(markers[0]!.eventId >= limited.historyCountWarn);
  });
}
