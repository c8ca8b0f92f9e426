import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { logbookProgram } from '../../gateway/cli/logbook.js';
import { killNoEngineProcesses, startNoEngineProcess } from '../support/no-engine-process.js';
import { freePort, runLogbookCli, startDevServer, type CliRun, type DevServer } from '../support/logbook-cli.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/**
 * The `logbook` command line as an operator runs it: every verb a process of its own against a dev
 * server started with `logbook server start-dev`, with a worker process (on the gateway's HTTP task
 * path) running the Temporal-compatible test workflows on task queue `cli`.
 */

const WORKER_MAIN = fileURLToPath(new URL('../support/compat-worker-main.ts', import.meta.url));
const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const CHANGED_WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible-changed.ts', import.meta.url));
const taskQueue = 'cli';

let server: DevServer;
let scratch: string;

/** `logbook …args` against the test's dev server. */
const logbook = (...args: string[]): Promise<CliRun> => runLogbookCli(args, { LOGBOOK_ADDRESS: server.address });
/** The same, asserting exit 0 and answering stdout parsed as JSON (the command is given `-o json`). */
async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const run = await logbook(...args, '-o', 'json');
  assert.equal(run.code, 0, `logbook ${args.join(' ')}: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout) as T;
}

before(async () => {
  server = await startDevServer(['--no-worker']);
  scratch = await mkdtemp(join(tmpdir(), 'logbook-cli-'));
  await startNoEngineProcess([WORKER_MAIN], { WORKER_GATEWAY: server.address, WORKER_TASK_QUEUE: taskQueue, WORKER_BROKERS: '', LOGBOOK_KAFKA_BROKERS: '' }, /READY/);
});
after(async () => {
  killNoEngineProcesses();
  await server.stop();
  await rm(scratch, { recursive: true, force: true });
});

test('workflow start, query, update, signal, stack, result, describe, show, list and count, each a process against the dev server; --output json gives the documented shapes', async () => {
  const workflowId = uniqueName('cli-approval');
  const started = await json<{ workflowId: string; runId: string }>('workflow', 'start', '--type', 'approval', '-t', taskQueue, '-w', workflowId);
  assert.equal(started.workflowId, workflowId);
  assert.match(started.runId, /^[0-9a-f-]{36}$/);
  assert.equal(await json('workflow', 'query', '-w', workflowId, '--type', 'stage'), 'waiting for approval');
  assert.equal(await json('workflow', 'update', '-w', workflowId, '--name', 'addItem', '-i', '"book"'), 1);
  const stack = await logbook('workflow', 'stack', '-w', workflowId);
  assert.equal(stack.code, 0, stack.stderr);
  assert.match(stack.stdout, /waits on:\n {2}condition/);
  assert.deepEqual(await json('workflow', 'signal', '-w', workflowId, '--name', 'approve', '-i', '"ada"'), { workflowId, signal: 'approve' });
  const outcome = await json<{ status: string; result: unknown; runId: string }>('workflow', 'result', '-w', workflowId);
  assert.deepEqual({ status: outcome.status, result: outcome.result, runId: outcome.runId }, { status: 'Completed', result: 'approved by ada with 1 items', runId: started.runId });
  const described = await json<{ executionInfo: { status: string; workflowType: string } }>('workflow', 'describe', '-w', workflowId);
  assert.equal(described.executionInfo.status, 'Completed');
  assert.equal(described.executionInfo.workflowType, 'approval');
  const table = await logbook('workflow', 'describe', '-w', workflowId);
  assert.match(table.stdout, /│ status +│ Completed +│/);
  const events = await json<Array<{ eventId: number; attributes: { type: string } }>>('workflow', 'show', '-w', workflowId);
  assert.equal(events[0]?.attributes.type, 'WorkflowExecutionStarted');
  assert.ok(events.some((e) => e.attributes.type === 'WorkflowExecutionSignaled'));
  const jsonl = await logbook('workflow', 'show', '-w', workflowId, '-o', 'jsonl');
  assert.equal(jsonl.stdout.trim().split('\n').length, events.length, 'one line per event');
  const listed = await json<Array<{ workflowId: string; status: string }>>('workflow', 'list', '-q', `WorkflowId = '${workflowId}'`);
  assert.deepEqual(listed.map((r) => [r.workflowId, r.status]), [[workflowId, 'Completed']]);
  assert.deepEqual(await json('workflow', 'count', '-q', `WorkflowId = '${workflowId}'`), { count: 1 });
});

test('workflow execute prints the result and exits 0; a run that fails exits 1 with one line naming the failure', async () => {
  const done = await logbook('workflow', 'execute', '--type', 'greet', '-t', taskQueue, '-i', '"CLI"');
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, /│ status +│ Completed/);
  assert.match(done.stdout, /Hello, CLI!/);
  const failed = await logbook('workflow', 'execute', '--type', 'rejectOrder', '-t', taskQueue, '-i', '"o-9"');
  assert.equal(failed.code, 1, failed.stdout + failed.stderr);
  assert.equal(failed.stderr.trim().split('\n').length, 1, failed.stderr);
  assert.match(failed.stderr, /^error: the run ended Failed: order o-9 rejected/);
});

test('workflow cancel, terminate and reset; show --follow prints events until the run closes', async () => {
  const cancelled = uniqueName('cli-cancel');
  await json('workflow', 'start', '--type', 'waitForever', '-t', taskQueue, '-w', cancelled);
  const following = logbook('workflow', 'show', '-w', cancelled, '--follow');
  await waitFor('the run to start its first task', async () => ((await json<unknown[]>('workflow', 'show', '-w', cancelled)).length >= 3 ? true : undefined));
  assert.deepEqual(await json('workflow', 'cancel', '-w', cancelled, '--reason', 'test'), { workflowId: cancelled, cancelRequested: true });
  const followed = await following;
  assert.equal(followed.code, 0, followed.stderr);
  assert.match(followed.stdout, /\tWorkflowExecutionCanceled\n$/);

  const terminated = uniqueName('cli-terminate');
  await json('workflow', 'start', '--type', 'waitForever', '-t', taskQueue, '-w', terminated);
  const waited = await logbook('workflow', 'result', '-w', terminated, '--timeout', '1s');
  assert.equal(waited.code, 6, 'a run still open when the wait runs out exits 6');
  assert.match(waited.stderr, /^error: REPLY_TIMEOUT: /);
  assert.deepEqual(await json('workflow', 'terminate', '-w', terminated, '--reason', 'enough'), { workflowId: terminated, terminated: true });
  const result = await logbook('workflow', 'result', '-w', terminated);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: the run ended Terminated: enough/);

  const reset = uniqueName('cli-reset');
  const first = await json<{ runId: string }>('workflow', 'start', '--type', 'greet', '-t', taskQueue, '-w', reset, '-i', '"reset"');
  await json('workflow', 'result', '-w', reset);
  const events = await json<Array<{ eventId: number; attributes: { type: string } }>>('workflow', 'show', '-w', reset);
  const completedTask = events.find((e) => e.attributes.type === 'WorkflowTaskCompleted')!;
  const again = await json<{ runId: string }>('workflow', 'reset', '-w', reset, '--event-id', String(completedTask.eventId), '--reason', 'rerun');
  assert.notEqual(again.runId, first.runId);
});

test('schedule create, list, describe, trigger, pause, unpause, backfill, update and delete', async () => {
  const scheduleId = uniqueName('cli-schedule');
  const common = ['--type', 'greet', '-t', taskQueue, '-i', '"schedule"'];
  await json('schedule', 'create', '-s', scheduleId, '--interval', '1h', '--paused', '--note', 'set up', ...common);
  const listed = await json<Array<{ scheduleId: string }>>('schedule', 'list');
  assert.ok(listed.some((s) => s.scheduleId === scheduleId));
  const described = await json<{ schedule: { state: { paused: boolean; notes: string } } }>('schedule', 'describe', '-s', scheduleId);
  assert.equal(described.schedule.state.paused, true);
  await json('schedule', 'unpause', '-s', scheduleId, '--reason', 'go');
  await json('schedule', 'trigger', '-s', scheduleId);
  await waitFor('the triggered action', async () => ((await json<{ info: { recentActions: unknown[] } }>('schedule', 'describe', '-s', scheduleId)).info.recentActions.length > 0 ? true : undefined));
  await json('schedule', 'pause', '-s', scheduleId, '--reason', 'hold');
  const now = Date.now();
  await json('schedule', 'backfill', '-s', scheduleId, '--start-time', new Date(now - 3 * 3_600_000).toISOString(), '--end-time', new Date(now - 3_600_000).toISOString());
  await json('schedule', 'update', '-s', scheduleId, '--cron', '0 9 * * *', '--time-zone', 'Europe/Paris', ...common);
  const updated = await json<{ schedule: { spec: { cronExpressions: string[] } } }>('schedule', 'describe', '-s', scheduleId);
  assert.deepEqual(updated.schedule.spec.cronExpressions, ['CRON_TZ=Europe/Paris 0 9 * * *']);
  await json('schedule', 'delete', '-s', scheduleId);
  const gone = await logbook('schedule', 'describe', '-s', scheduleId);
  assert.equal(gone.code, 3, 'a schedule that is not there exits 3');
  assert.match(gone.stderr, /^error: ScheduleNotFound/);
});

test('namespace register, list, describe and update', async () => {
  const name = uniqueName('clins').replace(/[^a-zA-Z0-9_-]/g, '-').slice(0, 60);
  const registered = await json<{ name: string; retention: string }>('namespace', 'register', name, '--retention', '72h', '--description', 'from the CLI');
  assert.equal(registered.name, name);
  assert.ok((await json<Array<{ name: string }>>('namespace', 'list')).some((n) => n.name === name));
  assert.equal((await json<{ description: string }>('namespace', 'describe', name)).description, 'from the CLI');
  assert.equal((await json<{ state: string }>('namespace', 'update', name, '--state', 'Deprecated')).state, 'Deprecated');
  type Guards = { codecRequiredTaskQueues: string[]; refusedSearchAttributes: string[] };
  const guarded = await json<Guards>('namespace', 'update', name, '--codec-required-task-queue', 'payments', 'team/vault', '--refused-search-attribute', 'Email');
  assert.deepEqual([guarded.codecRequiredTaskQueues, guarded.refusedSearchAttributes], [['payments', 'team/vault'], ['Email']]);
  const cleared = await json<Guards>('namespace', 'update', name, '--no-codec-required-task-queue');
  assert.deepEqual([cleared.codecRequiredTaskQueues, cleared.refusedSearchAttributes], [[], ['Email']], 'the --no- form clears one list and keeps the other');
  const refused = await logbook('namespace', 'update', name, '--codec-required-task-queue', 'a.b');
  assert.match(refused.stderr, /'codecRequiredTaskQueues'\[0\].* may contain only letters, digits/);
});

test('task-queue describe shows each kind with its partitions, backlog and pollers', async () => {
  const described = await json<{ kinds: Array<{ kind: string; pollers: number; partitions: Array<{ partition: number; backlog: number }> }> }>('task-queue', 'describe', '-t', taskQueue);
  assert.deepEqual(described.kinds.map((k) => k.kind), ['workflow', 'activity', 'query']);
  const workflow = described.kinds[0]!;
  assert.ok(workflow.partitions.length > 0);
  assert.ok(workflow.pollers >= 1, 'the gateway bridging the worker process polls the workflow tasks');
  const table = await logbook('task-queue', 'describe', '-t', taskQueue);
  assert.match(table.stdout, /│ Kind +│ Partition +│ Backlog/);
  const missing = await logbook('task-queue', 'describe', '-t', 'never-used-queue');
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /TaskQueueNotFound/);
});

test('replay replays an exported history (exit 0) and fails it against changed code (exit 1)', async () => {
  const workflowId = uniqueName('cli-replay');
  await json('workflow', 'execute', '--type', 'charge', '-t', taskQueue, '-w', workflowId, '-i', '"visa"');
  const history = await (await fetch(`http://${server.address}/api/v1/namespaces/default/workflows/${workflowId}/history?raw=1`)).text();
  const file = join(scratch, 'charge.json');
  await writeFile(file, history);
  const same = await logbook('replay', '--workflows', WORKFLOWS, file);
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /^ok {4}charge /m);
  const changed = await logbook('replay', '--workflows', CHANGED_WORKFLOWS, file);
  assert.equal(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(changed.stdout, /^FAIL {2}charge /m);
});

test('errors are one line with the documented exit codes (3 not found, 2 usage, 4 refused, 5 no gateway); --verbose adds the stack', async () => {
  const notFound = await logbook('workflow', 'describe', '-w', 'no-such-workflow');
  assert.equal(notFound.code, 3);
  assert.equal(notFound.stderr.trim().split('\n').length, 1, notFound.stderr);
  assert.match(notFound.stderr, /^error: WorkflowNotFound: /);
  const badJson = await logbook('workflow', 'start', '--type', 'greet', '-t', taskQueue, '-i', 'not json');
  assert.equal(badJson.code, 2);
  assert.match(badJson.stderr, /^error: --input "not json" is not JSON .*quote strings/);
  const unknownOption = await logbook('workflow', 'list', '--colour');
  assert.equal(unknownOption.code, 2);
  assert.match(unknownOption.stderr, /unknown option '--colour'/);
  const badOutput = await logbook('workflow', 'list', '-o', 'xml');
  assert.equal(badOutput.code, 2);
  assert.match(badOutput.stderr, /Allowed choices are table, json, jsonl/);
  const refused = await logbook('workflow', 'start', '--type', 'greet', '-t', 'bad queue name!');
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /taskQueue/);
  const nobody = await runLogbookCli(['workflow', 'list'], { LOGBOOK_ADDRESS: `127.0.0.1:${await freePort()}` });
  assert.equal(nobody.code, 5);
  assert.match(nobody.stderr, /^error: no Logbook gateway answers at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); start one with `logbook server start-dev`/);
  assert.doesNotMatch(nobody.stderr, /\n\s+at /, 'no stack without --verbose');
  const verbose = await runLogbookCli(['workflow', 'list', '--verbose'], { LOGBOOK_ADDRESS: `127.0.0.1:${await freePort()}` });
  assert.match(verbose.stderr, /\n\s+at /, 'the stack with --verbose');
});

test('server start-dev on a busy port exits 2 with one line naming the port and the flag to use', async () => {
  const busy = await runLogbookCli(['server', 'start-dev', '--port', String(server.port), '--data', join(scratch, 'second')], { LOGBOOK_KAFKA_BROKERS: '' }, 90_000);
  assert.equal(busy.code, 2, busy.stdout + busy.stderr);
  assert.match(busy.stderr, new RegExp(`error: port ${server.port} on 127\\.0\\.0\\.1 is in use .*choose another with --port`));
  assert.doesNotMatch(busy.stderr, /\n\s+at /);
});

test('server start-dev with a task token key too short to sign with exits 2 naming the flag, before starting anything', async () => {
  const refused = await runLogbookCli(['server', 'start-dev', '--task-token-key', 'abcd', '--data', join(scratch, 'never-created')], { LOGBOOK_KAFKA_BROKERS: '' });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /^error: --task-token-key \(LOGBOOK_TASK_TOKEN_KEY\) must hold at least 32 bytes/);
});

test('server start-dev --help prints its flags and exits 0 without starting anything', async () => {
  const help = await runLogbookCli(['server', 'start-dev', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage:\n {2}logbook server start-dev \[--port 8233\]/);
  assert.match(help.stdout, /--log-format text\|json/);
});

test('--help works on every command of the program, and as a process exits 0 with the usage', async () => {
  const walk = (command: Command, path: string[]): void => {
    const help = command.helpInformation();
    assert.match(help, /^Usage: /, `${path.join(' ')} --help`);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(logbookProgram(() => undefined, () => undefined), ['logbook']);
  const help = await logbook('workflow', 'start', '--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: logbook workflow start \[options\]/);
  const group = await logbook('workflow');
  assert.equal(group.code, 2, 'a group command alone is a usage mistake');
  assert.match(group.stdout + group.stderr, /Usage: logbook workflow/);
});

test('the worker process reports what only it measures (replay time, cache hits, activity run time) to the gateway, and the node shows it on /metrics', async () => {
  // Every test above ran its workflows and activities in the worker process; the dev server runs no worker of its own.
  const metrics = await waitFor('the worker report on /metrics', async () => {
    const text = await (await fetch(`http://${server.address}/metrics`)).text();
    return /^logbook_replay_seconds_count\{cache="(hit|miss)"\} [1-9]/m.test(text) && /^logbook_activity_task_seconds_count\{activity_type="chargeCard",outcome="completed"\} [1-9]/m.test(text) ? text : undefined;
  }, 20_000);
  assert.match(metrics, /^logbook_workflow_cache_requests_total\{result="(hit|miss)"\} [1-9]/m);
});
