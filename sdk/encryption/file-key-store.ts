import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyErased, KeyNotFound, type KeyStore, type SubjectKey } from './key-store.js';

/** One subject's file: its key, or the tombstone recording that it was erased. */
type KeyFile = { id: string; key: string } | { erased: true };

/** Bytes of an AES-256 key. */
const KEY_BYTES = 32;

/**
 * A key file that is there but cannot be used (not JSON, not a key or a tombstone, a key of the
 * wrong length): it was edited or truncated by hand. Remedy: restore the file from a backup; the
 * store never replaces it, since that would lose the subject's key for good.
 */
export class KeyFileUnreadable extends Error {
  /** Stable code. */
  readonly code = 'KEY_FILE_UNREADABLE';
  /** Never: the same file fails the same way until someone restores it. */
  readonly retriable = false;

  constructor(readonly file: string, reason: string, options?: { cause?: unknown }) {
    super(`the key file ${file} cannot be read: ${reason}; restore it from a backup (it is never replaced)`, options);
    this.name = 'KeyFileUnreadable';
  }
}

/**
 * A {@link KeyStore} for development: a directory with one JSON file per subject (mode 0600),
 * created on demand with a random 256-bit key. Erasing a subject replaces its file with a
 * tombstone, so "erased" is a recorded fact: a payload whose key is not there and whose subject
 * has no tombstone is `KeyNotFound` (a wrong `--keys` directory, a new host), never `KeyErased`.
 * Every file is written whole to a temporary file and then moved into place, so a crash never
 * leaves half a key. Not for production: keys sit unwrapped on disk.
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

  /**
   * The subject's key, created when the directory has no file for it. A store that is not the one
   * the subject's payloads were written with mints a key of its own here; decoding those payloads
   * first (as workers do before they encode anything) stops at `KeyNotFound` instead.
   * @throws KeyErased when the subject has a tombstone
   */
  async keyFor(subject: string): Promise<SubjectKey> {
    // Read every time, never cached: an erasure by another process holds at once.
    const known = await this.read(subject);
    if (known) return known;
    const created = { id: randomUUID(), material: randomBytes(KEY_BYTES) };
    // Linked into place, which fails if the name exists: of two processes creating the same
    // subject's key at once, the second reads the first's instead of replacing it.
    if (await this.place(subject, { id: created.id, key: created.material.toString('base64') }, 'create')) return created;
    const other = await this.read(subject);
    if (!other) throw new Error(`the key file of subject '${subject}' vanished while it was being created in ${this.directory}`);
    return other;
  }

  /**
   * @throws KeyErased when the subject has a tombstone
   * @throws KeyNotFound when there is no file for the subject, or its key has another id
   */
  async existingKey(subject: string, keyId: string): Promise<SubjectKey> {
    const key = await this.read(subject);
    if (!key || key.id !== keyId) throw new KeyNotFound(subject, keyId, `key directory ${this.directory}`);
    return key;
  }

  /** Replaces the subject's key file with a tombstone (atomically: a crash leaves the key or the tombstone). */
  async eraseSubject(subject: string): Promise<void> {
    await this.place(subject, { erased: true }, 'replace');
  }

  /**
   * Writes `content` to a temporary file (0600) and moves it to the subject's name: `replace`
   * renames over any file there; `create` links, and answers false when the name was taken.
   */
  private async place(subject: string, content: KeyFile, mode: 'create' | 'replace'): Promise<boolean> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const target = this.pathOf(subject);
    const temporary = join(this.directory, `.${randomUUID()}.tmp`);
    await writeFile(temporary, JSON.stringify(content), { mode: 0o600, flag: 'wx' });
    try {
      if (mode === 'replace') {
        await rename(temporary, target);
        return true;
      }
      await link(temporary, target);
      return true;
    } catch (error) {
      if (mode === 'create' && (error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      // After a rename the temporary name is gone already; after a link it is a second name.
      await rm(temporary, { force: true });
    }
  }

  /**
   * The subject's key, undefined when it has no file.
   * @throws KeyErased when the subject has a tombstone
   * @throws KeyFileUnreadable when the file is not a key or a tombstone
   */
  private async read(subject: string): Promise<SubjectKey | undefined> {
    const file = this.pathOf(subject);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const content = parseKeyFile(file, text);
    if ('erased' in content) throw new KeyErased(subject);
    return { id: content.id, material: Buffer.from(content.key, 'base64') };
  }

  /** The subject's file; the name is its id in base64url, so any subject id is a safe file name. */
  private pathOf(subject: string): string {
    return join(this.directory, `${Buffer.from(subject, 'utf8').toString('base64url')}.json`);
  }
}

/** @throws KeyFileUnreadable naming `file` when `text` is not a key of 32 bytes or a tombstone */
function parseKeyFile(file: string, text: string): KeyFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new KeyFileUnreadable(file, 'it is not JSON', { cause: error });
  }
  const content = parsed as Partial<{ id: unknown; key: unknown; erased: unknown }> | null;
  if (content?.erased === true) return { erased: true };
  if (typeof content?.id !== 'string' || typeof content.key !== 'string') throw new KeyFileUnreadable(file, 'it has neither {id, key} nor {erased: true}');
  if (Buffer.from(content.key, 'base64').length !== KEY_BYTES) throw new KeyFileUnreadable(file, `its key is not ${KEY_BYTES} bytes of base64`);
  return { id: content.id, key: content.key };
}
