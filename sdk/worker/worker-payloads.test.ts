import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultDataConverter, EncryptedPayload, payloadSubjectOf, withSubject, type Payload } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { EncryptionCodec } from '../encryption/encryption-codec.js';
import { FileKeyStore } from '../encryption/file-key-store.js';
import { KeyErased, KeyNotFound } from '../encryption/key-store.js';
import { HistoryBuilder } from '../replay/history-builder.js';
import { testBundle } from '../replay/test-harness.js';
import type { WorkflowTaskResult } from '../replay/workflow-run.js';
import { isRetriableDecodeFailure, WorkerPayloads } from './worker-payloads.js';
import type { HistoryFetcher } from './workflow-worker.js';
import { WorkflowTaskRunner } from './workflow-task-runner.js';

/** Worker payloads over an encryption codec with a fresh key directory. */
async function codecPayloads(): Promise<WorkerPayloads> {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-worker-payloads-'));
  return new WorkerPayloads([new EncryptionCodec({ keys: new FileKeyStore({ directory }) })]);
}

/** A run of the test workflow `sequential`, its input marked with `subject`, as a client with the codec starts it. */
function sequentialRun(runId: string, subject: string): HistoryBuilder {
  return new HistoryBuilder({ workflowType: 'sequential', workflowId: `wf-${runId}`, runId }).start(withSubject(subject, `order-of-${subject}`));
}

/** The workflow task for the builder's open task, carrying `events` (encoded). */
function taskOf(h: HistoryBuilder, events: HistoryEvent[]): WorkflowTask {
  const scheduled = h.lastEventId;
  return {
    ...h.identity, scheduledEventId: scheduled, attempt: 1, scheduledTime: h.now, startToCloseTimeoutMs: 10_000, events,
    lastEventId: scheduled, startedEventIdHint: scheduled + 1, messages: [], queries: [], historySizeBytes: 0, suggestContinueAsNew: false,
  };
}

/** The subjects the payloads of the task's commands are encrypted under (read from their clear metadata). */
function commandSubjects(result: WorkflowTaskResult): string[] {
  if (result.type !== 'completed') assert.fail(`the task failed: ${result.failure.message}`);
  const payloads = result.commands.flatMap((c) => (c.type === 'ScheduleActivityTask' ? c.input : [])) as Payload[];
  assert.ok(payloads.length > 0, 'the task schedules an activity with an input');
  for (const p of payloads) assert.equal(p.metadata.encoding?.toString(), EncryptedPayload.encoding);
  return payloads.map((p) => payloadSubjectOf(p) ?? '(none)');
}

/**
 * Runs the first task of a `sequential` run, then completes its first activity: answers the
 * runner, the builder (with the second task open) and the history a history fetcher serves.
 */
async function firstTaskThenActivity(runner: WorkflowTaskRunner, payloads: WorkerPayloads, runId: string, subject: string) {
  const h = sequentialRun(runId, subject);
  const first = taskOf(h, await payloads.encode(h.events, undefined));
  const result = await runner.run(first);
  assert.deepEqual(commandSubjects(result), [subject]);
  runner.answered(first, result.type === 'completed' ? result.commands : []);
  h.completeTask(result.type === 'completed' ? result.commands : []).activityCompleted('1', 'reservation-1').scheduleTask();
  const history = await payloads.encode(h.events, subject);
  // A sticky task carries the events from the last task's WorkflowTaskStarted on: no start event.
  const second = taskOf(h, history.slice(first.startedEventIdHint - 1));
  assert.ok(!second.events.some((e) => e.attributes.type === 'WorkflowExecutionStarted'));
  return { second, history };
}

/** A history fetcher serving `histories` by run id, counting its calls. */
function fetcherOf(histories: Map<string, HistoryEvent[]>): HistoryFetcher & { calls: number } {
  const fetcher = {
    calls: 0,
    fetch: async (run: { runId: string }, untilEventId: number) => {
      fetcher.calls++;
      return (histories.get(run.runId) ?? []).filter((e) => e.eventId <= untilEventId);
    },
  };
  return fetcher;
}

describe('the subject a run\'s payloads inherit', () => {
  it('a cached run keeps its subject however many activity attempts and runs the worker sees meanwhile', async () => {
    const payloads = await codecPayloads();
    const histories = new Map<string, HistoryEvent[]>();
    const fetcher = fetcherOf(histories);
    const hits: boolean[] = [];
    const runner = new WorkflowTaskRunner({ bundle: await testBundle(), dataConverter: defaultDataConverter, identity: 'w', history: fetcher, payloads, onTask: (e) => hits.push(e.cacheHit) });
    const { second } = await firstTaskThenActivity(runner, payloads, 'run-busy', 'customer-busy');
    // More activity attempts than any bounded map of subjects would hold, each naming another subject.
    const other: Payload = { metadata: { encoding: Buffer.from('json/plain'), [EncryptedPayload.subjectKey]: Buffer.from('customer-other') }, data: Buffer.from('1') };
    for (let i = 0; i < 10_001; i++) await payloads.decodeActivityTask({ runId: `run-${i}`, scheduledEventId: 5, attempt: 1, input: [other] });
    assert.deepEqual(commandSubjects(await runner.run(second)), ['customer-busy']);
    assert.deepEqual(hits, [false, true], 'the second task ran on the cached run');
    assert.equal(fetcher.calls, 0);
    runner.clear();
  });

  it('a run evicted from the cache reads its subject from history on its next task, not the default subject', async () => {
    const payloads = await codecPayloads();
    const histories = new Map<string, HistoryEvent[]>();
    const fetcher = fetcherOf(histories);
    const runner = new WorkflowTaskRunner({ bundle: await testBundle(), dataConverter: defaultDataConverter, identity: 'w', history: fetcher, payloads, maxCachedWorkflows: 1 });
    const a = await firstTaskThenActivity(runner, payloads, 'run-a', 'customer-a');
    histories.set('run-a', a.history);
    // Run B takes the cache's only place: A is evicted.
    const b = await firstTaskThenActivity(runner, payloads, 'run-b', 'customer-b');
    histories.set('run-b', b.history);
    assert.deepEqual(commandSubjects(await runner.run(a.second)), ['customer-a']);
    assert.equal(fetcher.calls, 1, 'A was replayed from history');
    // And A now holds the cache: B, evicted in turn, also keeps its own subject.
    assert.deepEqual(commandSubjects(await runner.run(b.second)), ['customer-b']);
    runner.clear();
  });

  it('fails the task rather than fall back to the default subject when history has no start event to read the subject from', async () => {
    const payloads = await codecPayloads();
    const histories = new Map<string, HistoryEvent[]>();
    const runner = new WorkflowTaskRunner({ bundle: await testBundle(), dataConverter: defaultDataConverter, identity: 'w', history: fetcherOf(histories), payloads, maxCachedWorkflows: 1 });
    const a = await firstTaskThenActivity(runner, payloads, 'run-headless', 'customer-h');
    runner.clear();
    histories.set('run-headless', a.history.filter((e) => e.attributes.type !== 'WorkflowExecutionStarted'));
    const result = await runner.run(a.second);
    assert.equal(result.type, 'failed');
    assert.match(result.type === 'failed' ? result.failure.message : '', /data subject of its payloads is unknown/);
  });
});

describe('the subject an activity\'s answers inherit', () => {
  it('is its input\'s while the attempt runs, and is forgotten when the attempt is answered', async () => {
    const payloads = await codecPayloads();
    const [input] = await payloads.encode([defaultDataConverter.toPayload(withSubject('customer-act', 'x'))], undefined);
    const attempt = { runId: 'run-act', scheduledEventId: 5, attempt: 2 };
    await payloads.decodeActivityTask({ ...attempt, input: [input!] });
    assert.equal(payloads.activitySubject(attempt), 'customer-act');
    assert.equal(payloads.activitySubject({ ...attempt, attempt: 3 }), undefined, 'another attempt is another entry');
    payloads.forgetActivity(attempt);
    assert.equal(payloads.activitySubject(attempt), undefined);
    assert.equal(payloads.activitiesKept, 0);
  });

  it('an input whose key is not found fails the attempt retriably; an erased key fails it for good', () => {
    assert.equal(isRetriableDecodeFailure(new KeyNotFound('s', 'k', 'key directory d')), true);
    assert.equal(isRetriableDecodeFailure(new KeyErased('s')), false);
    assert.equal(isRetriableDecodeFailure(new Error('tampered')), false);
  });
});
