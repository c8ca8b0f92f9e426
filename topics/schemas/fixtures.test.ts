import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { RecordCodec } from '../serde/record-codec.js';
import { namespaceCodec, recordCodecs, visibilityRowCodec } from '../serde/record-codecs.js';
import { SingleObjectSerde } from '../serde/single-object-serde.js';
import { frameSingleObject, readSingleObject } from '../serde/wire-format.js';
import { CommandType, type Command } from './command/index.js';
import { WorkflowCommandType } from './command/v1-workflow-commands.js';
import { listFixtureFiles, type FixtureFile } from './fixture-files.js';
import { fromFixtureJson } from './fixture-json.js';
import { HistoryEventType, type HistoryEvent } from './history-event/index.js';
import { schemaCatalog, type RecordName } from './schema-catalog.js';

const serde = new SingleObjectSerde();
const records = Object.keys(schemaCatalog) as RecordName[];

function load(file: FixtureFile): { bin: Buffer; expected: unknown } {
  return { bin: readFileSync(file.binPath), expected: fromFixtureJson(readFileSync(file.jsonPath, 'utf8')) };
}

for (const record of records) {
  const codec: RecordCodec<unknown> = recordCodecs[record];
  const files = listFixtureFiles(record);

  describe(`${record} golden fixtures`, () => {
    it('exist for every schema version', () => {
      const versions = new Set(files.map((f) => f.version));
      for (const { version } of schemaCatalog[record].versions) assert.ok(versions.has(version), `no v${version} fixture`);
    });

    for (const file of files) {
      const label = `v${file.version}-${file.caseName}`;

      it(`${label} decodes to its JSON and encodes back to the same bytes`, () => {
        const { bin, expected } = load(file);
        // codec.version throws if the schema version was deleted: versions are forever.
        const version = codec.version(file.version);
        const { fingerprint, body } = readSingleObject(bin);
        assert.equal(fingerprint, version.fingerprint, 'fixture was written by a different schema');
        assert.deepStrictEqual(codec.decodeBodyAs(file.version, body), expected);
        assert.deepStrictEqual(frameSingleObject(version.fingerprint, codec.encodeBodyAs(file.version, expected)), bin);
      });

      it(`${label} decodes with the latest reader, keeping every field it had`, () => {
        const { bin, expected } = load(file);
        const decoded = serde.decodeSync(codec, bin) as Record<string, unknown>;
        if (file.version === codec.latest.version) {
          assert.deepStrictEqual(decoded, expected);
        } else {
          assertKeepsFields(decoded, expected, '');
        }
      });
    }
  });
}

/**
 * Every field `expected` had is in `decoded` with its value, at any depth: a newer reader may add
 * fields with defaults to the record and to nested records, never change or drop one.
 */
function assertKeepsFields(decoded: unknown, expected: unknown, path: string): void {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);
  if (!isRecord(expected) || !isRecord(decoded)) {
    assert.deepStrictEqual(decoded, expected, `field ${path}`);
    return;
  }
  for (const [key, value] of Object.entries(expected)) assertKeepsFields(decoded[key], value, path ? `${path}.${key}` : key);
}

describe('schema evolution', () => {
  it('reads a VisibilityRow written by v1 with the v2 reader, defaulting historySizeBytes to 0', () => {
    const v1Files = listFixtureFiles('VisibilityRow').filter((f) => f.version === 1);
    assert.ok(v1Files.length > 0);
    assert.ok(visibilityRowCodec.latest.version > 1, 'VisibilityRow v2 is the latest version');
    for (const file of v1Files) {
      const { bin, expected } = load(file);
      const decoded = serde.decodeSync(visibilityRowCodec, bin);
      assert.deepStrictEqual(decoded, { ...(expected as object), historySizeBytes: 0 });
    }
  });

  it('reads a Namespace written by v1 or v2 with the v3 reader, with no codec-required task queue and no refused search attribute', () => {
    const older = listFixtureFiles('Namespace').filter((f) => f.version < 3);
    assert.deepEqual([...new Set(older.map((f) => f.version))].sort(), [1, 2]);
    for (const file of older) {
      const decoded = serde.decodeSync(namespaceCodec, load(file).bin);
      assert.deepStrictEqual([decoded.codecRequiredTaskQueues, decoded.refusedSearchAttributes], [[], []], file.caseName);
    }
  });
});

describe('fixture coverage', () => {
  const values = (record: RecordName): unknown[] => listFixtureFiles(record).map((f) => load(f).expected);

  it('includes every HistoryEvent type', () => {
    const seen = new Set(values('HistoryEvent').map((e) => (e as HistoryEvent).attributes.type));
    assert.deepEqual([...Object.keys(HistoryEventType)].filter((t) => !seen.has(t as never)), []);
  });

  it('includes every Command type', () => {
    const seen = new Set(values('Command').map((c) => (c as Command).body.type));
    assert.deepEqual([...Object.keys(CommandType)].filter((t) => !seen.has(t as never)), []);
  });

  it('includes every workflow command inside WorkflowTaskCompleted', () => {
    const seen = new Set<string>();
    for (const c of values('Command') as Command[]) {
      if (c.body.type === 'WorkflowTaskCompleted') for (const wc of c.body.commands) seen.add(wc.type);
    }
    assert.deepEqual([...Object.keys(WorkflowCommandType)].filter((t) => !seen.has(t)), []);
  });
});
