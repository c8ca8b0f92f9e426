import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodecServer, EncryptionCodec, FileKeyStore } from '../../sdk/encryption/index.js';
import { freePort } from '../../test/support/logbook-cli.js';
import { codecEndpoint, plainValues } from './codec-endpoint.js';
import { CliError, EXIT } from './errors.js';

const TOKEN = 'codec-endpoint-test-token';

let keys: string;
let codec: EncryptionCodec;
let server: Server;
let endpoint: string;
let calls = 0;

before(async () => {
  keys = await mkdtemp(join(tmpdir(), 'logbook-cli-codec-'));
  codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: keys }) });
  const inner = createCodecServer({ codecs: [codec], token: TOKEN });
  // Counts the calls, to check one command makes one.
  server = createServer((req, res) => {
    calls++;
    inner.emit('request', req, res);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(async () => {
  server.close();
  await rm(keys, { recursive: true, force: true });
});

const isCliError = (exitCode: number, message: RegExp) => (error: unknown) => error instanceof CliError && error.exitCode === exitCode && message.test(error.message);

describe('the CLI through a codec endpoint', () => {
  test('encodes values under the subject given, and decodes every envelope of an answer in one call, leaving search attributes alone', async () => {
    const values = codecEndpoint(`${endpoint}/codec`, TOKEN);
    const [order, note] = await values.encode([{ orderId: 7 }, 'leave at the door'], 'customer-1');
    assert.match(JSON.stringify(order), /"\$payload"/);
    assert.ok(!JSON.stringify(order).includes('orderId'), 'encrypted, not JSON');
    const envelope = order as { $payload: { metadata: Record<string, string> } };
    assert.equal(Buffer.from(envelope.$payload.metadata['logbook-subject']!, 'base64').toString(), 'customer-1');
    const searchAttributes = { Plain: { $payload: { metadata: {}, data: '' } } };
    calls = 0;
    const view = await values.decode({ events: [{ input: [order] }, { signal: note }], searchAttributes, status: 'Completed' });
    assert.deepEqual(view, { events: [{ input: [{ orderId: 7 }] }, { signal: 'leave at the door' }], searchAttributes, status: 'Completed' });
    assert.equal(calls, 1);
  });

  test('makes no call for an answer without envelopes, and without an endpoint prints envelopes as they are', async () => {
    calls = 0;
    assert.deepEqual(await codecEndpoint(endpoint, TOKEN).decode({ result: 3 }), { result: 3 });
    assert.equal(calls, 0);
    const envelope = { $payload: { metadata: {}, data: '' } };
    assert.deepEqual(await plainValues.decode({ result: envelope }), { result: envelope });
    await assert.rejects(plainValues.encode([1], 'customer-1'), isCliError(EXIT.USAGE, /--subject needs --codec-endpoint/));
  });

  test('a payload of an erased subject is a KeyErased error naming the subject, exit 8', async () => {
    const values = codecEndpoint(endpoint, TOKEN);
    const [sealed] = await values.encode(['personal'], 'customer-erased');
    await codec.eraseSubject('customer-erased');
    await assert.rejects(values.decode([sealed]), isCliError(EXIT.KEY_ERASED, /^KeyErased: the key of data subject 'customer-erased' was erased/));
  });

  test('a key the endpoint\'s store lacks is KeyNotFound, exit 5 (the endpoint is misconfigured), never exit 8 (erased)', async () => {
    const [sealed] = await codecEndpoint(endpoint, TOKEN).encode(['personal'], 'customer-elsewhere');
    const emptyKeys = await mkdtemp(join(tmpdir(), 'logbook-cli-codec-other-'));
    const other = createCodecServer({ codecs: [new EncryptionCodec({ keys: new FileKeyStore({ directory: emptyKeys }) })], token: TOKEN, log: () => undefined });
    await new Promise<void>((ready) => other.listen(0, '127.0.0.1', ready));
    try {
      const elsewhere = codecEndpoint(`http://127.0.0.1:${(other.address() as { port: number }).port}`, TOKEN);
      await assert.rejects(elsewhere.decode([sealed]), isCliError(EXIT.UNAVAILABLE, /^KeyNotFound: key .* of data subject 'customer-elsewhere' .*not erased/));
    } finally {
      other.close();
      await rm(emptyKeys, { recursive: true, force: true });
    }
  });

  test('a missing or wrong token exits 7 naming --codec-token, and an endpoint nobody answers exits 5 naming its URL', async () => {
    await assert.rejects(codecEndpoint(endpoint, undefined).encode([1]), isCliError(EXIT.UNAUTHENTICATED, /pass --codec-token/));
    await assert.rejects(codecEndpoint(endpoint, 'wrong').encode([1]), isCliError(EXIT.UNAUTHENTICATED, /refused --codec-token/));
    const nobody = `http://127.0.0.1:${await freePort()}`;
    await assert.rejects(codecEndpoint(nobody, TOKEN).encode([1]), isCliError(EXIT.UNAVAILABLE, new RegExp(`^no codec endpoint answers at ${nobody}/codec/encode`)));
    assert.throws(() => codecEndpoint('ftp://host', TOKEN), isCliError(EXIT.USAGE, /http or https/));
  });
});
