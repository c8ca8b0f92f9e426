import assert from 'node:assert/strict';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultDataConverter, toJsonPayload, withSubject } from '../../topics/payload/index.js';
import { createCodecServer } from './codec-server.js';
import { EncryptionCodec } from './encryption-codec.js';
import { FileKeyStore } from './file-key-store.js';

const TOKEN = 'codec-server-test-token';
const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

/** A codec server over a fresh key directory, listening on port 0, with what it logs. */
async function serve() {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-codec-server-'));
  const codec = new EncryptionCodec({ keys: new FileKeyStore({ directory }) });
  const logged: string[] = [];
  const server = createCodecServer({ codecs: [codec], token: TOKEN, log: (line) => logged.push(line) });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const call = async (route: string, body: unknown, token = TOKEN) => {
    const response = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string; payloads?: unknown[] } };
  };
  return { directory, codec, logged, call };
}

const plain = (value: unknown) => toJsonPayload(defaultDataConverter.toPayload(value));

describe('the codec server', () => {
  it('answers an erased subject 422 KeyErased, the code the CLI and the UI look for', async () => {
    const { codec, call } = await serve();
    const { body: sealed } = await call('/codec/encode', { payloads: [plain(withSubject('customer-e', 'gone'))] });
    await codec.eraseSubject('customer-e');
    const answer = await call('/codec/decode', sealed);
    assert.equal(answer.status, 422);
    assert.equal(answer.body.code, 'KeyErased');
    assert.match(answer.body.message!, /customer-e/);
  });

  it('answers a key its store lacks 503 KeyNotFound naming subject and key id but not the key directory', async () => {
    const first = await serve();
    const { body: sealed } = await first.call('/codec/encode', { payloads: [plain(withSubject('customer-m', 'kept'))] });
    const other = await serve();
    const answer = await other.call('/codec/decode', sealed);
    assert.equal(answer.status, 503);
    assert.equal(answer.body.code, 'KeyNotFound');
    assert.match(answer.body.message!, /customer-m/);
    assert.ok(!answer.body.message!.includes(other.directory), `no path in ${answer.body.message}`);
    assert.ok(other.logged.some((line) => line.includes(other.directory)), 'the operator reads the directory in the log');
  });

  it('answers any other failure 500 INTERNAL with a generic message, logging the detail (a key file path) instead', async () => {
    const { directory, logged, call } = await serve();
    await call('/codec/encode', { payloads: [plain(withSubject('customer-c', 'x'))] });
    const [file] = await readdir(directory);
    await writeFile(join(directory, file!), 'not json');
    const answer = await call('/codec/encode', { payloads: [plain(withSubject('customer-c', 'y'))] });
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body, { code: 'INTERNAL', message: 'the codec server failed; its log has the detail' });
    assert.ok(logged.some((line) => line.includes(join(directory, file!))));
  });

  it('refuses calls with the gateway\'s codes: 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 400 INVALID_ARGUMENT, 404 NOT_FOUND', async () => {
    const { call } = await serve();
    assert.deepEqual([(await call('/codec/decode', { payloads: [] }, '')).body.code, (await call('/codec/decode', { payloads: [] }, 'wrong')).body.code], ['UNAUTHENTICATED', 'PERMISSION_DENIED']);
    const bad = await call('/codec/decode', 'not json');
    assert.deepEqual([bad.status, bad.body.code], [400, 'INVALID_ARGUMENT']);
    const nowhere = await call('/codec/other', { payloads: [] });
    assert.deepEqual([nowhere.status, nowhere.body.code], [404, 'NOT_FOUND']);
  });
});
