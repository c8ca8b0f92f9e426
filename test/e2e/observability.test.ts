import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { promtool } from '../support/promtool.js';
import { runLogbookCli, startDevServer, type DevServer } from '../support/logbook-cli.js';
import { waitFor } from '../support/test-env.js';

/**
 * What an operator deploys next to Logbook: the Prometheus rules (checked and unit-tested by
 * promtool, Debian's), the Grafana dashboard, and the metrics both read — each found on a running
 * dev server's /metrics after real workflows ran.
 */

const run = promisify(execFile);
const RULES = fileURLToPath(new URL('../../docker/prometheus/logbook-rules.yml', import.meta.url));
const RULE_TESTS = fileURLToPath(new URL('../../docker/prometheus/logbook-rules.test.yml', import.meta.url));
const DASHBOARD = fileURLToPath(new URL('../../docker/grafana/logbook-dashboard.json', import.meta.url));

/** The seed design's metrics (§19) as Logbook names them. */
const SEED_METRICS = [
  'logbook_workflow_starts_total', 'logbook_workflow_completions_total', 'logbook_workflow_task_seconds', 'logbook_activity_task_seconds',
  'logbook_activity_retries_total', 'logbook_replay_seconds', 'logbook_workflow_cache_requests_total', 'logbook_history_size_events', 'logbook_timer_lateness_seconds',
  'logbook_shards', 'logbook_shards_configured', 'logbook_consumer_lag_records', 'logbook_workflow_task_failures_total', 'logbook_activities_closed_total',
];

let server: DevServer;
let metrics: string;

before(async () => {
  server = await startDevServer();
  const order = { orderId: '7', sku: 'book', quantity: 1, amountCents: 2500, phone: '+100', packTimeout: '1h', ratingDelay: '1s' };
  const env = { LOGBOOK_ADDRESS: server.address };
  assert.equal((await runLogbookCli(['workflow', 'start', '--type', 'order', '-t', 'orders', '-w', 'metrics-order', '-i', JSON.stringify(order)], env)).code, 0);
  await waitFor('the order to wait for the seller', async () => ((await runLogbookCli(['workflow', 'query', '-w', 'metrics-order', '--type', 'status', '-o', 'json'], env)).stdout.includes('waiting for the seller') ? true : undefined), 30_000);
  assert.equal((await runLogbookCli(['workflow', 'signal', '-w', 'metrics-order', '--name', 'sellerPacked', '-i', '{"parcelId":"p-7"}'], env)).code, 0);
  assert.equal((await runLogbookCli(['workflow', 'result', '-w', 'metrics-order'], env)).code, 0);
  metrics = await (await fetch(`http://${server.address}/metrics`)).text();
});
after(async () => server.stop());

/** The metric names an expression reads (histogram series by their metric's name). */
function metricNames(expr: string): string[] {
  return [...new Set([...expr.matchAll(/\blogbook_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')))];
}

test('promtool checks the rules file and its unit tests pass: each alert fires on the series that should fire it and not on a healthy deployment', async () => {
  const binary = await promtool();
  const checked = await run(binary, ['check', 'rules', RULES]);
  assert.match(checked.stdout, /SUCCESS: 9 rules found/);
  const tested = await run(binary, ['test', 'rules', RULE_TESTS]);
  assert.match(tested.stdout, /SUCCESS/);
});

test("/metrics has the seed design's metrics with namespace labels, from the history every worker's tasks wrote, and no doubled prefix", () => {
  for (const name of SEED_METRICS) assert.match(metrics, new RegExp(`^# HELP ${name} `, 'm'), `${name} on /metrics`);
  assert.match(metrics, /^logbook_workflow_completions_total\{namespace="default",workflow_type="order",status="Completed"\} 1$/m);
  assert.match(metrics, /^logbook_workflow_tasks_recorded_total\{namespace="default",task_queue="orders"\} [1-9]/m);
  assert.match(metrics, /^logbook_activities_closed_total\{namespace="default",outcome="completed"\} [1-9]/m);
  // Created at 0 when the run started, so an alert's increase() sees the first failure.
  assert.match(metrics, /^logbook_workflow_task_failures_total\{namespace="default",task_queue="orders",cause="NonDeterministicError"\} 0$/m);
  assert.match(metrics, /^logbook_compensation_failures_total\{namespace="default",workflow_type="order"\} 0$/m);
  assert.match(metrics, /^logbook_shards_configured \d+$/m);
  assert.match(metrics, /^logbook_process_cpu_seconds_total /m);
  assert.doesNotMatch(metrics, /logbook_process_process_/);
});

test('every metric the alert rules and the Grafana dashboard read is one the engine exports', async () => {
  const rules = await readFile(RULES, 'utf8');
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
  const read = [...metricNames(rules), ...dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)))];
  assert.ok(read.length > 10);
  for (const name of new Set(read)) assert.match(metrics, new RegExp(`^# HELP ${name} `, 'm'), `${name}, read by the rules or the dashboard, is on /metrics`);
});

test('--log-format json prints one JSON object per line, and the lines about a run carry its workflow and run ids', async () => {
  const json = await startDevServer(['--log-format', 'json']);
  try {
    const env = { LOGBOOK_ADDRESS: json.address };
    const order = { orderId: '8', sku: 'pen', quantity: 2, amountCents: 900, phone: '+100', packTimeout: '1h', ratingDelay: '1s' };
    const started = await runLogbookCli(['workflow', 'start', '--type', 'order', '-t', 'orders', '-w', 'json-order', '-i', JSON.stringify(order), '-o', 'json'], env);
    const { runId } = JSON.parse(started.stdout) as { runId: string };
    await waitFor('the activity log line', () => (json.output().includes('reserving 2 × pen') ? true : undefined), 30_000);
    const lines = json.output().trim().split('\n');
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        assert.fail(`not JSON: ${line}`);
      }
    });
    for (const entry of parsed) {
      assert.equal(typeof entry.msg, 'string');
      assert.match(String(entry.level), /^(info|warn|error|debug|trace)$/);
      assert.ok(!Number.isNaN(Date.parse(String(entry.time))));
    }
    assert.ok(parsed.some((e) => String(e.msg).startsWith('Logbook is running')));
    const activity = parsed.find((e) => e.msg === 'reserving 2 × pen');
    assert.deepEqual({ workflowId: activity?.workflowId, runId: activity?.runId, activityType: activity?.activityType, namespace: activity?.namespace }, { workflowId: 'json-order', runId, activityType: 'reserveStock', namespace: 'default' });
  } finally {
    await json.stop();
  }
});

test('a --log-format that is not one stops the dev server with one line naming the flag (exit 2)', async () => {
  const refused = await runLogbookCli(['server', 'start-dev', '--log-format', 'xml', '--port', '0', '--data', '/nonexistent/never-created'], { LOGBOOK_KAFKA_BROKERS: '' });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /^error: --log-format \(LOGBOOK_LOG_FORMAT\) must be text or json, got 'xml'\n$/);
});
