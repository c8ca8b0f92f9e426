/**
 * The Python examples, run with real Python clients (confluent-kafka, fastavro) against the real
 * broker: a producer starts workflows by writing commands, an activity worker serves their
 * activities over the Kafka task protocol (claims, redelivery confirmation after a crash,
 * heartbeats, cancellation on the control topic, completions and failures), and an analyst reads
 * the history stream. Also decodes every golden fixture with fastavro and the committed `.avsc`
 * files.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../kafka/assemble.js';
import { PYTHON_EXAMPLES, examplesPython } from '../support/python-venv.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers, securedKafka, waitFor } from '../support/test-env.js';

const POLYGLOT_WORKFLOWS = fileURLToPath(new URL('../../examples/polyglot/workflows.ts', import.meta.url));

/** A Python process with its output collected line by line. */
interface PythonProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<number>;
}

function spawnPython(python: string, script: string, args: string[], env: Record<string, string> = {}): PythonProcess {
  const child = spawn(python, [resolve(PYTHON_EXAMPLES, script), ...args], { cwd: PYTHON_EXAMPLES, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return { child, lines, exited };
}

/** Runs a Python script to its end; fails the test if it takes longer than `timeoutMs`. */
async function runPython(python: string, script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<{ code: number; output: string }> {
  const process = spawnPython(python, script, args, env);
  const timer = setTimeout(() => process.child.kill('SIGKILL'), timeoutMs);
  const code = await process.exited;
  clearTimeout(timer);
  return { code, output: process.lines.join('\n') };
}

function waitForLine(process: PythonProcess, pattern: RegExp, what: string, timeoutMs = 60_000): Promise<string> {
  return waitFor(what, () => process.lines.find((l) => pattern.test(l)), timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}; the process printed:\n${process.lines.join('\n')}`);
  });
}

describe('the Python examples', { timeout: 300_000 }, () => {
  let python: string;
  let engine: TestEngine;
  let prefix: string;
  const workers: PythonProcess[] = [];
  let connection: string[];

  before(async () => {
    python = await examplesPython();
    engine = await startTestEngine('kafka', {
      shards: 2,
      workers: false,
      extraWorkers: [{ taskQueue: 'polyglot', workflowsPath: POLYGLOT_WORKFLOWS, activities: {} }],
    });
    prefix = engine.engine.catalog.prefix;
    connection = ['--brokers', kafkaBrokers().join(','), '--prefix', prefix];
  });

  after(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await engine?.stop();
  });

  it('decodes every golden fixture with fastavro and the committed .avsc files, as the fixture JSON says', async () => {
    const { code, output } = await runPython(python, join(PROJECT_ROOT, 'test', 'python', 'check_golden_fixtures.py'), [join(PROJECT_ROOT, 'topics', 'schemas')]);
    assert.equal(code, 0, output);
    const summary = /^(\d+) of (\d+) golden fixtures decoded as their JSON says$/m.exec(output);
    assert.ok(summary, output);
    assert.equal(summary[1], summary[2]);
    assert.ok(Number(summary[2]) >= 90, `only ${summary[2]} fixtures were found`);
  });

  it('starts a workflow from Python whose activity the Python worker runs, and hears its result', async () => {
    const worker = spawnPython(python, 'activity_worker.py', [...connection, '--task-queue', 'python-activities']);
    workers.push(worker);
    const parcel = { parcelId: 'p-1', weightKg: 2.5, destination: 'NL' };
    const started = await runPython(python, 'start_workflow.py', [...connection, '--workflow-type', 'quoteParcel', '--task-queue', 'polyglot', '--workflow-id', 'parcel-1', '--args', JSON.stringify([parcel]), '--wait']);
    assert.equal(started.code, 0, started.output);
    assert.match(started.output, /^started quoteParcel workflow parcel-1 run [0-9a-f-]{36}$/m);
    const result = /^Completed: (.*)$/m.exec(started.output);
    assert.ok(result, started.output);
    const quote = JSON.parse(result[1]!) as { carrier: string; priceCents: number; quotedBy: string };
    assert.deepEqual({ carrier: quote.carrier, priceCents: quote.priceCents }, { carrier: 'PostNL', priceCents: 745 });
    assert.match(quote.quotedBy, /^python@/);
    await waitForLine(worker, /^completed quoteShipping \(activity 1 of parcel-1, attempt 1\)$/, 'the worker to report the completion');
  });

  it("skips a task record it cannot decode, and reports a Python activity's failure as the workflow's failure, with its type and no retry when non-retryable", async () => {
    // The worst a task topic can hold: bytes that are no record of the contract, on every partition.
    const producer = await engine.engine.log.producer();
    const tasks = engine.engine.catalog.taskTopics('default', 'python-activities').activity;
    await producer.send([0, 1, 2, 3].map((partition) => ({ topic: tasks, partition, key: 'garbage', value: Buffer.from('not a task') })));
    await waitForLine(workers[0]!, /^skipped the record at partition \d+ offset \d+: not Avro single-object encoding/, 'the worker to skip the garbage');
    const heavy = { parcelId: 'p-2', weightKg: 42, destination: 'DE' };
    const started = await runPython(python, 'start_workflow.py', [...connection, '--workflow-type', 'quoteParcel', '--task-queue', 'polyglot', '--workflow-id', 'parcel-2', '--args', JSON.stringify([heavy]), '--wait']);
    assert.equal(started.code, 1, started.output);
    assert.match(started.output, /^Failed: .*cause: parcel p-2 weighs 42\.0 kg; carriers take at most 30 kg \(TooHeavy\)$/m);
    const history = await engine.history('parcel-2', /run ([0-9a-f-]{36})/.exec(started.output)![1]!);
    assert.equal(history.filter((e) => e.attributes.type === 'ActivityTaskStarted').length, 1, 'a non-retryable failure is not retried');
  });

  it('after a worker is killed mid-activity, the next worker refuses to rerun the claimed attempt, resumes from the heartbeat and honours a cancellation', async () => {
    const first = workers[0]!;
    const started = await runPython(python, 'start_workflow.py', [...connection, '--workflow-type', 'trackUntilStopped', '--task-queue', 'polyglot', '--workflow-id', 'parcel-3', '--args', JSON.stringify(['p-3'])]);
    assert.equal(started.code, 0, started.output);
    await waitForLine(first, /^tracking p-3 from checkpoint 0$/, 'the first worker to start tracking');
    // Let a heartbeat or two with progress reach the engine, then crash the worker.
    await new Promise((r) => setTimeout(r, 2_500));
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnPython(python, 'activity_worker.py', [...connection, '--task-queue', 'python-activities']);
    workers.push(second);
    // The uncommitted task comes back; attempt 1 is still held by the dead worker's claim.
    await waitForLine(second, /^skipped trackParcel \(activity 1 of parcel-3, attempt 1\): the engine refused the claim/, 'the redelivered attempt to be refused');
    // Its heartbeat timeout (10 s) ends attempt 1; attempt 2 starts from the last checkpoint.
    const resumed = await waitForLine(second, /^tracking p-3 from checkpoint [1-9]\d*$/, 'attempt 2 to resume from the heartbeat details', 60_000);
    assert.ok(resumed);

    await engine.signal('parcel-3', 'stopTracking', []);
    const reply = await engine.result('parcel-3', 60_000);
    assert.equal(resultOf<string>(engine.engine, reply), 'tracking of p-3 stopped');
    await waitForLine(second, /^cancelled trackParcel \(activity 1 of parcel-3, attempt 2\)$/, 'the worker to report the cancellation');
  });

  it('reads the history stream from Python over the SASL_SSL listener (SCRAM-SHA-256) and prints durations per workflow type', async () => {
    const secured = securedKafka('scram-sha-256');
    const { code, output } = await runPython(python, 'history_analyst.py', ['--brokers', secured.brokers.join(','), '--prefix', prefix], secured.env);
    assert.equal(code, 0, output);
    assert.match(output, /^read \d+ history events from 2 partitions of .*\.history$/m);
    assert.match(output, /^quoteParcel\s+2\s+1 completed, 1 failed\s+\d+\s+\d+$/m);
    assert.match(output, /^trackUntilStopped\s+1\s+1 completed\s+\d+\s+\d+$/m);
    assert.match(output, /^0 runs still open$/m);
  });
});
