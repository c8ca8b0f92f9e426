import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeKafkaSecurity, kafkaSecurityFromSettings, kafkaSecuritySettingsFromEnv, readTlsFiles } from './kafka-security.js';

test('no settings mean plaintext without authentication; empty strings count as unset', () => {
  assert.equal(kafkaSecurityFromSettings({}), undefined);
  assert.equal(kafkaSecurityFromSettings({ saslMechanism: '', saslUsername: ' ', tls: '' }), undefined);
  assert.equal(describeKafkaSecurity(undefined), 'plaintext, no authentication');
});

test('SASL settings: mechanism names in any case, and each missing part named with its flag and variable', () => {
  assert.deepEqual(kafkaSecurityFromSettings({ saslMechanism: 'SCRAM-SHA-512', saslUsername: 'u', saslPassword: 'p' }), { sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } });
  assert.throws(() => kafkaSecurityFromSettings({ saslMechanism: 'gssapi', saslUsername: 'u', saslPassword: 'p' }), /--kafka-sasl-mechanism \(LOGBOOK_KAFKA_SASL_MECHANISM\) must be one of plain, scram-sha-256, scram-sha-512, got 'gssapi'/);
  assert.throws(() => kafkaSecurityFromSettings({ saslMechanism: 'plain', saslPassword: 'p' }), /SASL plain needs --kafka-sasl-username \(LOGBOOK_KAFKA_SASL_USERNAME\)/);
  assert.throws(() => kafkaSecurityFromSettings({ saslMechanism: 'plain', saslUsername: 'u' }), /SASL plain needs --kafka-sasl-password \(LOGBOOK_KAFKA_SASL_PASSWORD\)/);
  assert.throws(() => kafkaSecurityFromSettings({ saslUsername: 'u', saslPassword: 'p' }), /no --kafka-sasl-mechanism/);
});

test('TLS settings: on by the flag or by naming a file; a client certificate needs its key; contradictions are refused', () => {
  assert.deepEqual(kafkaSecurityFromSettings({ tls: 'true' }), { tls: {} });
  assert.deepEqual(kafkaSecurityFromSettings({ tls: true }), { tls: {} });
  assert.deepEqual(kafkaSecurityFromSettings({ tlsCa: 'ca.pem' }), { tls: { caFile: 'ca.pem' } });
  assert.deepEqual(kafkaSecurityFromSettings({ tls: 'off' }), undefined);
  assert.throws(() => kafkaSecurityFromSettings({ tls: 'maybe' }), /--kafka-tls \(LOGBOOK_KAFKA_TLS\) must be true or false, got 'maybe'/);
  assert.throws(() => kafkaSecurityFromSettings({ tls: 'false', tlsCa: 'ca.pem' }), /--kafka-tls .* is off, but a TLS file is named/);
  assert.throws(() => kafkaSecurityFromSettings({ tlsCert: 'c.pem' }), /needs both --kafka-tls-cert .* and --kafka-tls-key/);
  assert.throws(() => kafkaSecurityFromSettings({ tlsKey: 'k.pem' }), /needs both/);
});

test('the settings come from LOGBOOK_KAFKA_* variables, and the description never shows the password', () => {
  const settings = kafkaSecuritySettingsFromEnv({ LOGBOOK_KAFKA_SASL_MECHANISM: 'plain', LOGBOOK_KAFKA_SASL_USERNAME: 'svc', LOGBOOK_KAFKA_SASL_PASSWORD: 'hunter2', LOGBOOK_KAFKA_TLS_CA: '/etc/ca.pem' });
  const security = kafkaSecurityFromSettings(settings);
  assert.deepEqual(security, { sasl: { mechanism: 'plain', username: 'svc', password: 'hunter2' }, tls: { caFile: '/etc/ca.pem' } });
  const described = describeKafkaSecurity(security);
  assert.equal(described, 'TLS (CA /etc/ca.pem), SASL PLAIN as svc');
  assert.doesNotMatch(described, /hunter2/);
});

test('TLS files are read at start-up; a missing one is named with its setting', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'logbook-tls-'));
  try {
    await writeFile(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    assert.deepEqual(readTlsFiles({ caFile: join(dir, 'ca.pem') }), { ca: '-----BEGIN CERTIFICATE-----\n' });
    assert.throws(() => readTlsFiles({ caFile: join(dir, 'missing.pem') }), /cannot read --kafka-tls-ca \(LOGBOOK_KAFKA_TLS_CA\) .*missing\.pem/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
