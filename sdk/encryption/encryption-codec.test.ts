import assert from 'node:assert/strict';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CodecDataConverter, defaultDataConverter, EncryptedPayload, withSubject, type Payload } from '../../topics/payload/index.js';
import { EncryptionCodec } from './encryption-codec.js';
import { FileKeyStore } from './file-key-store.js';
import { KeyErased, PayloadTampered } from './key-store.js';

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

  it('leaves payloads that are not encrypted as they are on decode', async () => {
    const { codec } = await fixture();
    const plain = defaultDataConverter.toPayload({ a: 1 });
    assert.deepEqual(await codec.decode([plain]), [plain]);
  });
});
