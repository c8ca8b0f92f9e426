import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandCodec, logbookSubjectStrategy, mutableStateSnapshotCodec, shardPositionsCodec } from '../topics/serde/index.js';
import { registrySerdeFromFlags } from './schema-registry-flags.js';

test('no registry named means single-object encoding; credentials without a URL are refused', () => {
  assert.equal(registrySerdeFromFlags({}, {}), undefined);
  assert.throws(() => registrySerdeFromFlags({}, { LOGBOOK_SCHEMA_REGISTRY_USERNAME: 'u' }), /no --schema-registry URL/);
});

test('a registry URL must be http(s), credentials come in pairs, and the URL shown never carries its credentials', () => {
  assert.throws(() => registrySerdeFromFlags({ 'schema-registry': 'registry:8081' }, {}), /--schema-registry \(LOGBOOK_SCHEMA_REGISTRY_URL\) must be an http\(s\) URL, got 'registry:8081'/);
  assert.throws(() => registrySerdeFromFlags({ 'schema-registry': 'ftp://registry' }, {}), /must be an http\(s\) URL/);
  assert.throws(() => registrySerdeFromFlags({ 'schema-registry': 'http://registry:8081', 'schema-registry-username': 'u' }, {}), /need both/);
  const fromEnv = registrySerdeFromFlags({}, { LOGBOOK_SCHEMA_REGISTRY_URL: 'https://svc:secret@registry.example:8081/apis/ccompat/v7' });
  assert.equal(fromEnv?.shown, 'https://registry.example:8081/apis/ccompat/v7');
});

test("subjects: <topic>-value for topics of one record kind, <topic>-<record> for the state topic's two kinds", () => {
  const serde = registrySerdeFromFlags({ 'schema-registry': 'http://registry:8081' }, {})!.serde;
  assert.equal(serde.subjectOf(commandCodec, 'logbook.commands'), 'logbook.commands-value');
  assert.equal(serde.subjectOf(mutableStateSnapshotCodec, 'logbook.state'), 'logbook.state-logbook.MutableStateSnapshot');
  assert.equal(serde.subjectOf(shardPositionsCodec, 'logbook.state'), 'logbook.state-logbook.ShardPositions');
  assert.equal(logbookSubjectStrategy('logbook.tasks.activity.default.state', 'logbook.ActivityTask'), 'logbook.tasks.activity.default.state-value');
});
