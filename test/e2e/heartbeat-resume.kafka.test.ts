import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { readHistories } from '../support/history-audit.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';
import type { CountReport } from '../workflows/heartbeat-resume.js';

interface PendingActivityView {
  attempt: number;
  startedIdentity: string | null;
  lastHeartbeatDetails: unknown;
}

async function pendingActivity(endpoint: string, workflowId: string): Promise<PendingActivityView | undefined> {
  const response = await fetch(`${endpoint}/api/v1/namespaces/default/workflows/${workflowId}`);
  if (!response.ok) return undefined;
  return ((await response.json()) as { pendingActivities?: PendingActivityView[] }).pendingActivities?.[0];
}

test('kill -9 of the worker running a heartbeating activity: the next attempt, on the other worker, resumes from the last recorded heartbeat details and finishes', async () => {
  const prefix = uniqueName('resume').replaceAll('-', '_');
  const shards = 2;
  const catalog = topicCatalog({ prefix, shards });
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
  const dataDir = await mkdtemp(join(tmpdir(), 'logbook-resume-'));
  const env = (extra: Record<string, string>) => ({ LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ...extra });
  const engine = await startEngineProcess(env({ ENGINE_ROLE: 'engine', ENGINE_DATA: dataDir }));
  const workerEnv = env({ ENGINE_ROLE: 'workers', ENGINE_WORKER_GATEWAY: engine.endpoint });
  const workers: EngineProcess[] = [await startEngineProcess(workerEnv), await startEngineProcess(workerEnv)];
  const { client, close } = await connectLogClient(log, catalog);
  try {
    const id = 'count-worker-crash';
    const steps = 20;
    await client.start({ workflowId: id, workflowType: 'resumableCount', taskQueue: 'resume', args: [steps, 300] });
    // Partial work recorded: a heartbeat of step 3 or later reached the engine.
    const running = await waitFor('a heartbeat of step 3 or later', async () => {
      const activity = await pendingActivity(engine.endpoint, id);
      return activity?.startedIdentity && typeof activity.lastHeartbeatDetails === 'number' && activity.lastHeartbeatDetails >= 3 ? activity : undefined;
    }, 60_000);
    const victim = workers.find((w) => running.startedIdentity!.startsWith(`${w.pid}@`));
    assert.ok(victim, `the claim ${running.startedIdentity} names one of the worker processes`);
    await victim.kill9();
    const recorded = (await pendingActivity(engine.endpoint, id))!.lastHeartbeatDetails as number;

    const reply = await client.send(client.envelope('default', id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 120_000 });
    assert.equal(reply?.executionStatus, 'Completed');
    const report = client.dataConverter.fromPayload<CountReport>(reply!.payload!);
    assert.ok(report.attempt >= 2, `a later attempt finished (attempt ${report.attempt})`);
    assert.ok(report.resumedFrom !== null && report.resumedFrom >= recorded, `it resumed from step ${report.resumedFrom}, at or after the ${recorded} recorded when the worker died`);
    assert.deepEqual(report.ran, Array.from({ length: steps - report.resumedFrom }, (_, i) => report.resumedFrom! + 1 + i), 'it ran only the steps left');

    const [events] = [...(await readHistories(log, catalog)).values()] as [HistoryEvent[]];
    const completions = events.filter((e) => e.attributes.type === 'ActivityTaskCompleted');
    assert.equal(completions.length, 1, 'one completion');
    const survivor = workers.find((w) => w !== victim)!;
    assert.ok(completions[0]!.attributes.type === 'ActivityTaskCompleted' && completions[0]!.attributes.identity.startsWith(`${survivor.pid}@`), 'the surviving worker finished it');
  } finally {
    await close();
    for (const w of workers) await w.stop();
    await engine.stop();
    await log.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
