import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import avro from 'avsc';
import { avscFiles, type AvscIndexEntry } from './avsc-files.js';

const FOLDER = new URL('./avsc/', import.meta.url);
const REGENERATE = 'regenerate them with `npx logbook schemas export topics/schemas/avsc` (new versions only: released ones never change)';

test('the committed .avsc files are exactly what the schema definitions produce, with none missing and none extra', async () => {
  const expected = avscFiles();
  const committed = (await readdir(FOLDER)).sort();
  assert.deepEqual(committed, expected.map((f) => f.name).sort(), `the files in topics/schemas/avsc differ from the schema versions; ${REGENERATE}`);
  for (const file of expected) {
    assert.equal(await readFile(new URL(file.name, FOLDER), 'utf8'), file.text, `${file.name} drifted from its schema definition; ${REGENERATE}`);
  }
});

test('every published schema parses on its own in an Avro library, and index.json names each file with its fingerprint and the latest version', async () => {
  const index = JSON.parse(await readFile(new URL('index.json', FOLDER), 'utf8')) as AvscIndexEntry[];
  for (const entry of index) {
    const schema = JSON.parse(await readFile(new URL(entry.file, FOLDER), 'utf8')) as avro.Schema;
    const type = avro.Type.forSchema(schema);
    assert.equal(type.name, entry.fullName);
    assert.match(entry.fingerprint, /^[0-9a-f]{16}$/);
  }
  const latest = index.filter((e) => e.latest).map((e) => e.record);
  assert.equal(new Set(latest).size, latest.length, 'one latest version per record');
  assert.ok(latest.includes('HistoryEvent') && latest.includes('Command'));
});
