import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LogbookError } from '../../topics/errors.js';
import type { LogIdentity } from '../../topics/log/log.js';

/** Which log, and which deployment on it, the shard stores of a data directory materialise. */
export type StoreIdentity = LogIdentity & { readonly prefix: string };

/** The file, in the node's data directory, that records its {@link StoreIdentity}. */
export const STORE_IDENTITY_FILE = 'log-identity.json';

/** A data directory that holds the embedded engine's state was given to an engine on Kafka. */
export class DataDirectoryMismatchError extends LogbookError {
  constructor(message: string) {
    super('DATA_DIRECTORY_MISMATCH', message);
  }
}

const describe = (identity: StoreIdentity) => (identity.kind === 'kafka' ? `the Kafka cluster ${identity.clusterId}, topic prefix ${identity.prefix}` : `the embedded log, topic prefix ${identity.prefix}`);

const same = (a: StoreIdentity, b: StoreIdentity) => a.kind === b.kind && a.prefix === b.prefix && (a.kind !== 'kafka' || (b.kind === 'kafka' && a.clusterId === b.clusterId));

/**
 * Makes the shard stores under `directory` belong to `expected`. Stores are caches of the log's
 * changelogs, and positions in them only mean something on the log they came from: stores of
 * another Kafka cluster or topic prefix would seek past every new command, so they are wiped and
 * restored from the changelogs. A directory that holds the embedded engine's state is refused for
 * Kafka (its workflows live beside it, in the embedded log), with a message that says what to do.
 * @returns what was found: nothing yet, the same log, or another one whose stores were wiped
 */
export async function claimStores(directory: string, expected: StoreIdentity, shardsDirectory: string): Promise<'fresh' | 'same' | 'wiped'> {
  const file = join(directory, STORE_IDENTITY_FILE);
  const found = await readIdentity(file);
  if (found && same(found, expected)) return 'same';
  if (found?.kind === 'embedded' && expected.kind === 'kafka') {
    throw new DataDirectoryMismatchError(
      `the data directory ${directory} holds the state of the embedded engine (${describe(found)}), and this engine runs on ${describe(expected)}; ` +
        'start it without --kafka to use that data, or give the Kafka engine a directory of its own (--data DIR or LOGBOOK_DATA)',
    );
  }
  // Caches of another log, or on Kafka stores that recorded no log (an older version): rebuilt
  // from this log's changelogs. Embedded stores without a record are the embedded log's own.
  const stale = found !== undefined || (expected.kind === 'kafka' && (await hasEntries(shardsDirectory)));
  if (stale) await rm(shardsDirectory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(file, `${JSON.stringify(expected)}\n`);
  return stale ? 'wiped' : 'fresh';
}

async function hasEntries(directory: string): Promise<boolean> {
  return (await readdir(directory).catch(() => [])).length > 0;
}

async function readIdentity(file: string): Promise<StoreIdentity | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as StoreIdentity;
  } catch {
    // An unreadable record names no log: its stores are treated as another Kafka deployment's caches.
    return { kind: 'kafka', clusterId: '', prefix: '' };
  }
}
