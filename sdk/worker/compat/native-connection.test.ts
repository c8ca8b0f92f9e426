import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { NativeConnection, NativeConnectionError } from './native-connection.js';

/** A port that was free a moment ago: nothing listens there. */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

test('NativeConnection.connect to brokers nobody runs fails at once, saying what is missing and how to work through a gateway instead', async () => {
  const port = await freePort();
  await assert.rejects(NativeConnection.connect({ brokers: [`127.0.0.1:${port}`] }), (error: unknown) => {
    assert.ok(error instanceof NativeConnectionError);
    assert.match(error.message, new RegExp(`nothing listens at 127\\.0\\.0\\.1:${port}`));
    assert.match(error.message, /leave brokers out and pass its address/);
    return true;
  });
});

test('NativeConnection.connect without brokers to a gateway nobody runs names the address, npm start, and the brokers alternative', async () => {
  const port = await freePort();
  await assert.rejects(NativeConnection.connect({ address: `127.0.0.1:${port}`, taskPath: 'gateway', connectTimeout: 2_000 }), (error: unknown) => {
    assert.ok(error instanceof NativeConnectionError);
    assert.match(error.message, new RegExp(`cannot reach a Logbook gateway: http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.match(error.message, /npm start/);
    assert.match(error.message, /LOGBOOK_KAFKA_BROKERS/);
    return true;
  });
});

test("taskPath 'kafka' without brokers is refused with the two ways to give them", async () => {
  const saved = process.env.LOGBOOK_KAFKA_BROKERS;
  delete process.env.LOGBOOK_KAFKA_BROKERS;
  try {
    await assert.rejects(NativeConnection.connect({ taskPath: 'kafka' }), /taskPath 'kafka' needs brokers: pass them, or set LOGBOOK_KAFKA_BROKERS/);
  } finally {
    if (saved !== undefined) process.env.LOGBOOK_KAFKA_BROKERS = saved;
  }
});
