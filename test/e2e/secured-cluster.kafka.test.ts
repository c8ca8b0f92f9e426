/**
 * Secured clusters: the broker's SASL_SSL listener (self-signed certificate, SASL PLAIN and
 * SCRAM-SHA-256/512, see test/kafka/secured-listener.ts). A client with the right TLS and SASL
 * settings runs workflows, by the programmatic options and by the dev server's flags and
 * environment; one without them is refused with an error that names the setting to fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../gateway/engine.js';
import { freePorts } from '../kafka/config.js';
import { checkLogLocation } from '../../topics/log/open-log.js';
import { SASL_MECHANISMS, type KafkaSecurity } from '../../topics/log/kafka-security.js';
import { resultOf, startTestEngine } from '../support/test-engine.js';
import { kafkaBrokers, securedKafka, uniqueName, waitFor } from '../support/test-env.js';

const CLI = fileURLToPath(new URL('../../gateway/cli/bin.mjs', import.meta.url));

/** What Engine.start says when it cannot use the brokers with these settings. */
async function refusal(brokers: string[], security: KafkaSecurity | undefined): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'logbook-refused-'));
  try {
    await Engine.start({ log: { kind: 'kafka', brokers, ...(security ? { security } : {}) }, prefix: uniqueName('refused').replaceAll('-', '_'), dataDirectory: dir, endpoint: 'http://127.0.0.1:0', shards: 1 });
  } catch (error) {
    return (error as Error).message;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  throw new Error('the engine started although its Kafka settings do not fit the listener');
}

for (const mechanism of SASL_MECHANISMS) {
  test(`a client with TLS and SASL ${mechanism.toUpperCase()} credentials reaches the SASL_SSL listener`, async () => {
    const { brokers, security } = securedKafka(mechanism);
    await checkLogLocation({ kind: 'kafka', brokers, security });
  });
}

test('an engine and its workers on the SASL_SSL listener (SCRAM-SHA-256) run a workflow to completion', async () => {
  const { brokers, security } = securedKafka('scram-sha-256');
  const engine = await startTestEngine('kafka', { shards: 2, engine: { log: { kind: 'kafka', brokers, security } } });
  try {
    await engine.start('bookTrip', 'travel', 'trip-secured', [{ tripId: 'trip-secured' }]);
    const reply = await engine.result('trip-secured');
    assert.equal(reply.executionStatus, 'Completed', JSON.stringify(reply.failure));
    assert.ok(resultOf(engine.engine, reply));
  } finally {
    await engine.stop();
  }
});

test('clients without the listener\'s settings are refused with an error naming what to set', async () => {
  const { brokers, security } = securedKafka('scram-sha-512');
  assert.match(await refusal(brokers, undefined), /did not answer in plaintext .*set --kafka-tls/);
  assert.match(await refusal(brokers, { tls: security.tls! }), /closed the connection after TLS: the listener probably requires SASL/);
  assert.match(await refusal(brokers, { ...security, sasl: { ...security.sasl!, password: 'wrong' } }), /refused the credentials: .*--kafka-sasl-password/);
  assert.match(await refusal(brokers, { tls: {}, sasl: security.sasl! }), /TLS certificate is not trusted .*--kafka-tls-ca/);
  assert.match(await refusal(kafkaBrokers(), security), /did not answer TLS .*leave --kafka-tls off/);
});

test('the dev server takes the SASL and TLS settings from flags and environment, with a schema registry, and refuses an unknown mechanism', async () => {
  const { brokers, env } = securedKafka('scram-sha-512');
  const registry = process.env.LOGBOOK_TEST_SCHEMA_REGISTRY_URL;
  assert.ok(registry, 'LOGBOOK_TEST_SCHEMA_REGISTRY_URL is set by the test command (Apicurio Registry beside the broker)');
  const prefix = uniqueName('dev_secured').replaceAll('-', '_');
  const data = await mkdtemp(join(tmpdir(), 'logbook-dev-secured-'));
  const [port] = await freePorts(1);
  // The password from the environment, the rest as flags: a deployment keeps secrets off the command line.
  const flags = ['--prefix', prefix, '--schema-registry', registry, '--kafka', brokers.join(','), '--kafka-sasl-mechanism', 'scram-sha-512', '--kafka-sasl-username', env.LOGBOOK_KAFKA_SASL_USERNAME!, '--kafka-tls-ca', env.LOGBOOK_KAFKA_TLS_CA!];
  const child = spawn(process.execPath, [CLI, 'server', 'start-dev', '--port', String(port), '--data', data, '--shards', '2', '--no-worker', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOGBOOK_KAFKA_BROKERS: '', LOGBOOK_KAFKA_SASL_PASSWORD: env.LOGBOOK_KAFKA_SASL_PASSWORD },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  try {
    await waitFor('the dev server to be ready', () => output.includes('Logbook is running'), 90_000).catch((error: Error) => {
      throw new Error(`${error.message}; it printed:\n${output}`);
    });
    assert.match(output, /connecting to Kafka at .* \(TLS \(CA .*\), SASL SCRAM-SHA-512 as logbook\)/);
    assert.doesNotMatch(output, new RegExp(env.LOGBOOK_KAFKA_SASL_PASSWORD!), 'the password is never printed');
    assert.match(output, /values in the Confluent wire format through the schema registry at http:\/\/127\.0\.0\.1:\d+\/apis\/ccompat\/v7/);
    assert.match(output, new RegExp(`schema registry: logbook\\.Command v\\d+ under subject ${prefix}\\.commands-value \\(id \\d+\\)`));
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/default/workflows`);
    assert.equal(health.status, 200, await health.clone().text());
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(data, { recursive: true, force: true });
  }

  const refused = spawn(process.execPath, [CLI, 'server', 'start-dev', '--data', data, '--kafka', brokers.join(','), '--kafka-sasl-mechanism', 'kerberos'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOGBOOK_KAFKA_BROKERS: '' } });
  let errors = '';
  refused.stderr.on('data', (c: Buffer) => (errors += c.toString()));
  const code = await new Promise<number | null>((r) => refused.once('exit', r));
  assert.equal(code, 2, 'a flag that does not fit is a usage mistake');
  assert.match(errors, /--kafka-sasl-mechanism \(LOGBOOK_KAFKA_SASL_MECHANISM\) must be one of plain, scram-sha-256, scram-sha-512, got 'kerberos'/);
  await rm(data, { recursive: true, force: true });
});
