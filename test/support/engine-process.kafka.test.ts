import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineProcess } from './engine-process.js';
import { kafkaBrokers, uniqueName } from './test-env.js';

test('SIGTERM stops an engine process that runs workers too: it exits by itself with code 0', async () => {
  const data = await mkdtemp(join(tmpdir(), 'logbook-stop-'));
  const prefix = uniqueName('stop').replaceAll('-', '_');
  const engine = await startEngineProcess({ LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: '1', ENGINE_ROLE: 'both', ENGINE_DATA: join(data, 'node') });
  try {
    await engine.stop();
    // Not the harness's SIGKILL after its grace period, nor the process's own 'STOP timed out' exit(1).
    assert.deepEqual(await engine.exited, { code: 0, signal: null }, engine.output.join('').slice(-2000));
  } finally {
    await engine.kill9();
    await rm(data, { recursive: true, force: true });
  }
});
