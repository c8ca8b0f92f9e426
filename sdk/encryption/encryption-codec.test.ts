import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CodecDataConverter, defaultDataConverter, EncryptedPayload, withSubject, type Payload } from '../../topics/payload/index.js';
import { EncryptionCodec } from './encryption-codec.js';
import { FileKeyStore, KeyFileUnreadable } from './file-key-store.js';
import { KeyErased, KeyNotFound, PayloadTampered } from './key-store.js';

async function fixture() {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-keys-'));
  const keys = new FileKeyStore({ directory });
  const codec = new EncryptionCodec({ keys });
  return { directory, keys, codec, converter: new CodecDataConverter({ codecs: [codec] }) };
}

const meta = (p: Payload, key: string) => p.metadata[key]?.toString('utf8');

describe('EncryptionCodec', () => {
  it('round-trips a value marked with a subject, and the ciphertext shows neither the value nor its metadata', async () => {
    const { converter } = await fixture();
    const secret = 'secret-round-trip-4711';
    const encrypted = await converter.toPayload(withSubject('customer-a', { note: secret }));
    assert.equal(meta(encrypted, 'encoding'), EncryptedPayload.encoding);
    assert.equal(meta(encrypted, EncryptedPayload.subjectKey), 'customer-a');
    assert.ok(meta(encrypted, EncryptedPayload.keyIdKey));
    assert.ok(!encrypted.data.toString('latin1').includes(secret));
    assert.ok(!encrypted.data.toString('latin1').includes('json/plain'));
    assert.deepEqual(await converter.fromPayload(encrypted), { note: secret });
  });

  it('encrypts an unmarked value under the default subject', async () => {
    const { converter } = await fixture();
    const encrypted = await converter.toPayload('plain');
    assert.equal(meta(encrypted, EncryptedPayload.subjectKey), 'logbook-default');
    assert.equal(await converter.fromPayload(encrypted), 'plain');
  });

  it('refuses a ciphertext of subject A relabelled as subject B, even when B has a key', async () => {
    const { converter } = await fixture();
    const ofA = await converter.toPayload(withSubject('customer-a', 'a-data'));
    const ofB = await converter.toPayload(withSubject('customer-b', 'b-data'));
    // Relabelled with B's subject and key id: the key is B's, the associated data says B, the ciphertext is A's.
    const moved: Payload = { metadata: { ...ofA.metadata, [EncryptedPayload.subjectKey]: ofB.metadata[EncryptedPayload.subjectKey]!, [EncryptedPayload.keyIdKey]: ofB.metadata[EncryptedPayload.keyIdKey]! }, data: ofA.data };
    await assert.rejects(converter.fromPayload(moved), PayloadTampered);
  });

  it('refuses a payload whose data was tampered with', async () => {
    const { converter } = await fixture();
    const encrypted = await converter.toPayload(withSubject('customer-a', 'intact'));
    const data = Buffer.from(encrypted.data);
    data[20] = data[20]! ^ 0x01;
    await assert.rejects(converter.fromPayload({ metadata: encrypted.metadata, data }), (error: unknown) => error instanceof PayloadTampered && /altered/.test((error as Error).message));
  });

  it('throws KeyErased naming the subject once the subject was erased, and other subjects still decrypt', async () => {
    const { converter, codec } = await fixture();
    const erased = await converter.toPayload(withSubject('customer-a', 'gone'));
    const kept = await converter.toPayload(withSubject('customer-b', 'kept'));
    await codec.eraseSubject('customer-a');
    await assert.rejects(converter.fromPayload(erased), (error: unknown) => {
      assert.ok(error instanceof KeyErased);
      assert.equal(error.name, 'KeyErased');
      assert.match(error.message, /customer-a/);
      assert.match(error.message, /erased/);
      return true;
    });
    assert.equal(await converter.fromPayload(kept), 'kept');
    // Erased stays erased: no fresh key is minted for the subject.
    await assert.rejects(converter.toPayload(withSubject('customer-a', 'new')), KeyErased);
  });

  it('writes each key file with mode 0600', async () => {
    const { converter, directory } = await fixture();
    await converter.toPayload(withSubject('customer-a', 'x'));
    const [file] = await readdir(directory);
    assert.ok(file);
    assert.equal((await stat(join(directory, file))).mode & 0o777, 0o600);
  });

  it('a key missing from the key directory is a retriable KeyNotFound naming subject, key id and directory, and decoding mints no key', async () => {
    const { converter } = await fixture();
    const sealed = await converter.toPayload(withSubject('customer-a', 'kept elsewhere'));
    const elsewhere = await fixture();
    await assert.rejects(elsewhere.converter.fromPayload(sealed), (error: unknown) => {
      assert.ok(error instanceof KeyNotFound, `KeyNotFound, not ${String(error)}`);
      assert.ok(!(error instanceof KeyErased));
      assert.equal(error.retriable, true);
      assert.equal(error.code, 'KEY_NOT_FOUND');
      assert.match(error.message, /customer-a/);
      assert.ok(error.message.includes(meta(sealed, EncryptedPayload.keyIdKey)!));
      assert.ok(error.message.includes(elsewhere.directory));
      return true;
    });
    assert.deepEqual(await readdir(elsewhere.directory).catch(() => []), [], 'a decode never creates a key');
  });

  it('a key file holding another key id for the subject is KeyNotFound, not KeyErased', async () => {
    const { converter } = await fixture();
    const sealed = await converter.toPayload(withSubject('customer-a', 'first key'));
    const other = await fixture();
    await other.converter.toPayload(withSubject('customer-a', 'a key of its own'));
    await assert.rejects(other.converter.fromPayload(sealed), KeyNotFound);
  });

  it('erasure is recorded as a tombstone: erasing a subject that never had a key still refuses a new one', async () => {
    const { codec, converter, directory } = await fixture();
    await codec.eraseSubject('customer-never-seen');
    await assert.rejects(converter.toPayload(withSubject('customer-never-seen', 'x')), KeyErased);
    const files = await readdir(directory);
    assert.equal(files.length, 1, `only the tombstone, no temporary file left: ${files.join(', ')}`);
    assert.equal((await stat(join(directory, files[0]!))).mode & 0o777, 0o600);
  });

  it('a key file that is not a key or a tombstone fails with KeyFileUnreadable naming the file, and is not replaced', async () => {
    const { converter, directory } = await fixture();
    await converter.toPayload(withSubject('customer-a', 'x'));
    const [file] = await readdir(directory);
    const path = join(directory, file!);
    await writeFile(path, '{"id": "k1", "key": "tr');
    await assert.rejects(converter.toPayload(withSubject('customer-a', 'y')), (error: unknown) => error instanceof KeyFileUnreadable && error.message.includes(path) && /not JSON/.test(error.message));
    await writeFile(path, JSON.stringify({ id: 'k1', key: Buffer.alloc(16).toString('base64') }));
    await assert.rejects(converter.toPayload(withSubject('customer-a', 'y')), (error: unknown) => error instanceof KeyFileUnreadable && /not 32 bytes/.test(error.message));
    assert.equal(await readFile(path, 'utf8'), JSON.stringify({ id: 'k1', key: Buffer.alloc(16).toString('base64') }), 'the damaged file is left for a restore');
  });

  it('two stores creating the same subject\'s key at once end up with one key, and leave no temporary files', async () => {
    const { directory } = await fixture();
    const stores = Array.from({ length: 8 }, () => new FileKeyStore({ directory }));
    const keys = await Promise.all(stores.map((store) => store.keyFor('customer-race')));
    assert.equal(new Set(keys.map((k) => k.id)).size, 1);
    assert.deepEqual(await readdir(directory), [`${Buffer.from('customer-race').toString('base64url')}.json`]);
  });

  it('leaves payloads that are not encrypted as they are on decode', async () => {
    const { codec } = await fixture();
    const plain = defaultDataConverter.toPayload({ a: 1 });
    assert.deepEqual(await codec.decode([plain]), [plain]);
  });
});
