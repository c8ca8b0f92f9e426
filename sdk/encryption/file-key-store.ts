import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyErased, type KeyStore, type SubjectKey } from './key-store.js';

/** One subject's file: its key, or the mark that it was erased. */
type KeyFile = { id: string; key: string } | { erased: true };

/**
 * A {@link KeyStore} for development: a directory with one JSON file per subject (mode 0600),
 * created on demand with a random 256-bit key. Erasing a subject overwrites its file with an
 * erased mark, so a later `keyFor` refuses with `KeyErased` instead of minting a fresh key that
 * would look like the old data came back. Not for production: keys sit unwrapped on disk.
 *
 * @example
 * const keys = new FileKeyStore({ directory: './dev-keys' });
 * const codec = new EncryptionCodec({ keys });
 */
export class FileKeyStore implements KeyStore {
  private readonly directory: string;

  constructor(options: { directory: string }) {
    this.directory = options.directory;
  }

  async keyFor(subject: string): Promise<SubjectKey> {
    // Read every time, never cached: an erasure by another process holds at once.
    const known = await this.read(subject);
    if (known) return known;
    const created = { id: randomUUID(), material: randomBytes(32) };
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    try {
      // `wx`: two processes creating the same subject's key at once — the second reads the first's.
      await writeFile(this.pathOf(subject), JSON.stringify({ id: created.id, key: created.material.toString('base64') }), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = await this.read(subject);
      if (other) return other;
    }
    return created;
  }

  async existingKey(subject: string, keyId: string): Promise<SubjectKey> {
    const key = await this.read(subject);
    if (!key || key.id !== keyId) throw new KeyErased(subject);
    return key;
  }

  async eraseSubject(subject: string): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFile(this.pathOf(subject), JSON.stringify({ erased: true }), { mode: 0o600 });
  }

  /** The subject's key, undefined when it has none yet. @throws KeyErased when it was erased */
  private async read(subject: string): Promise<SubjectKey | undefined> {
    let text: string;
    try {
      text = await readFile(this.pathOf(subject), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const file = JSON.parse(text) as KeyFile;
    if ('erased' in file) throw new KeyErased(subject);
    return { id: file.id, material: Buffer.from(file.key, 'base64') };
  }

  /** The subject's file; the name is its id in base64url, so any subject id is a safe file name. */
  private pathOf(subject: string): string {
    return join(this.directory, `${Buffer.from(subject, 'utf8').toString('base64url')}.json`);
  }
}
