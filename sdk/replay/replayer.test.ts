import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resultOf, startTestEngine, type TestEngine } from '../../test/support/test-engine.js';
import * as activities from '../../test/workflows/patching/activities.js';
import { NonDeterminismError } from './errors.js';
import { historyFromExport } from './history-export.js';
import { replayHistories } from './replayer.js';
import { serveGateway } from '../../test/support/http-gateway.js';

const version = (name: string): string => fileURLToPath(new URL(`../../test/workflows/patching/${name}.ts`, import.meta.url));
const CLI = fileURLToPath(new URL('./replay-cli.ts', import.meta.url));

let t: TestEngine;
let server: Server;
let directory: string;
/** The gateway's raw export of a completed `audited` run recorded by the v1 code. */
let exported: unknown;
let exportFile: string;
let workflowId: string;
before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-replayer-'));
  t = await startTestEngine('embedded', { workers: false, extraWorkers: [{ taskQueue: 'audited-v1', workflowsPath: version('v1'), activities }] });
  server = await serveGateway(t.engine);
  workflowId = 'exported-audited';
  await t.start('audited', 'audited-v1', workflowId, []);
  await t.signal(workflowId, 'go', []);
  assert.equal(resultOf<string>(t.engine, await t.result(workflowId)), 'A+B');
  const port = (server.address() as { port: number }).port;
  exported = await (await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/default/workflows/${workflowId}/history?raw=1`)).json();
  exportFile = join(directory, `${workflowId}.json`);
  await writeFile(exportFile, JSON.stringify(exported));
});
after(async () => {
  server.close();
  await t.stop();
  await rm(directory, { recursive: true, force: true });
});

test('replayHistories accepts a real exported history with the code that recorded it and with its patched successor, and reports NonDeterminismError for an unpatched change', async () => {
  const history = historyFromExport(exported);
  assert.equal(history.at(-1)?.attributes.type, 'WorkflowExecutionCompleted');
  const [same] = await replayHistories({ workflowsPath: version('v1') }, [history]);
  assert.deepEqual(same, { workflowType: 'audited', workflowId, runId: history[0]!.runId, eventCount: history.length, ok: true });
  const [fixed] = await replayHistories({ workflowsPath: version('v2-patched') }, [history]);
  assert.equal(fixed?.ok, true);

  const [broken] = await replayHistories({ workflowsPath: version('v2-unpatched') }, [history]);
  assert.equal(broken?.ok, false);
  assert.ok(broken?.error instanceof NonDeterminismError);
  assert.match(broken.error.message, /non-determinism in workflow audited \(workflowId exported-audited\) at event \d+: .*ScheduleActivityTask\(activityType=audit, activityId=2\)/);
});

test('replayHistories reports each history on its own: a history in JSON.stringify form replays, a truncated one is reported, not thrown', async () => {
  const events = await t.history(workflowId, historyFromExport(exported)[0]!.runId);
  const stringified = historyFromExport(JSON.parse(JSON.stringify(events)));
  const results = await replayHistories({ workflowsPath: version('v1') }, [stringified, stringified.slice(1)]);
  assert.deepEqual(results.map((r) => r.ok), [true, false]);
  assert.equal(results[1]?.error?.name, 'HistoryShapeError');
  assert.throws(() => historyFromExport({ runId: 'r', events: 'none' }), { name: 'HistoryShapeError' });
});

test('the replay CLI prints one line per history and exits 1 when a history does not replay with the new code', async () => {
  const run = promisify(execFile);
  const ok = await run(process.execPath, ['--import', 'tsx', CLI, '--workflows', version('v2-patched'), exportFile]);
  assert.match(ok.stdout, /^ok {4}audited exported-audited \S+ \(.*exported-audited\.json, \d+ events\)$/m);
  assert.match(ok.stdout, /1 of 1 histories replay/);
  const failure = await run(process.execPath, ['--import', 'tsx', CLI, '--workflows', version('v2-unpatched'), exportFile]).then(
    () => assert.fail('the CLI must exit non-zero'),
    (err: { code: number; stdout: string }) => err,
  );
  assert.equal(failure.code, 1);
  assert.match(failure.stdout, /^FAIL {2}audited exported-audited .*: NonDeterminismError: non-determinism in workflow audited/m);
  assert.match(failure.stdout, /0 of 1 histories replay/);
});
