import { formatFingerprint, schemaFingerprint } from '../serde/schema-fingerprint.js';
import { schemaCatalog } from './schema-catalog.js';

/** One published schema file. */
export interface AvscFile {
  /** File name inside the export folder, e.g. `HistoryEvent.v1.avsc`. */
  readonly name: string;
  readonly text: string;
}

/** What `index.json` says about one schema version. */
export interface AvscIndexEntry {
  readonly record: string;
  readonly fullName: string;
  readonly version: number;
  readonly latest: boolean;
  readonly file: string;
  /** CRC-64-AVRO of the Parsing Canonical Form, as 16 hex digits (big-endian): the single-object header's fingerprint. */
  readonly fingerprint: string;
}

/**
 * The published contract: every version of every record kind as a self-contained `.avsc` file,
 * plus `index.json` mapping record, version and single-object fingerprint to its file, so a reader
 * in any language can pick the writer schema a record names. The committed copy lives in
 * `topics/schemas/avsc/`; `logbook schemas export DIR` writes the same files.
 */
export function avscFiles(): AvscFile[] {
  const files: AvscFile[] = [];
  const index: AvscIndexEntry[] = [];
  for (const schemas of Object.values(schemaCatalog)) {
    for (const { version, schema } of schemas.versions) {
      const name = `${schemas.record}.v${version}.avsc`;
      files.push({ name, text: `${JSON.stringify(schema, null, 2)}\n` });
      index.push({
        record: schemas.record,
        fullName: schemas.fullName,
        version,
        latest: version === schemas.versions.length,
        file: name,
        fingerprint: formatFingerprint(schemaFingerprint(schema)),
      });
    }
  }
  files.push({ name: 'index.json', text: `${JSON.stringify(index, null, 2)}\n` });
  return files;
}
