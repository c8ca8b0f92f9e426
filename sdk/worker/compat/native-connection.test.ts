import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { NativeConnection, NativeConnectionError } from './native-connection.js';

test('NativeConnection.connect to brokers nobody runs fails at once, saying what is missing and what a worker process needs', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  await assert.rejects(NativeConnection.connect({ brokers: [`127.0.0.1:${port}`] }), (error: unknown) => {
    assert.ok(error instanceof NativeConnectionError);
    assert.match(error.message, new RegExp(`nothing listens at 127\\.0\\.0\\.1:${port}`));
    assert.match(error.message, /start it with --kafka <brokers> to run workers of your own/);
    return true;
  });
});
