import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startRequest, type StartOptions } from '../../sdk/client/start-options.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { Payload } from '../../topics/payload/payload.js';
import { startTestEngine } from '../support/test-engine.js';

const encrypted: Payload = { metadata: { encoding: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from('k-1') }, data: Buffer.from('c2VhbGVk', 'base64') };

test('on the broker, the command topic refuses a plaintext start on a codec-required queue and a refused search attribute, and takes an encrypted start', async () => {
  const t = await startTestEngine('kafka', { shards: 2, workers: false });
  try {
    await t.engine.namespaces.register('billing', { codecRequiredTaskQueues: ['orders'], refusedSearchAttributes: ['CustomerEmail'] });
    const client = t.engine.client;
    const start = async (options: Omit<StartOptions, 'namespace' | 'workflowId' | 'workflowType'>, input?: Payload[]) => {
      const workflowId = `w-${randomUUID()}`;
      const request = startRequest({ namespace: 'billing', workflowId, workflowType: 'invoice', ...options }, defaultDataConverter, 'test');
      const body = { type: 'StartWorkflowExecution' as const, ...request, ...(input ? { input } : {}) };
      return (await client.send(client.envelope('billing', workflowId, body), { awaitReply: true, timeoutMs: 20_000 }))!;
    };

    const plaintext = await start({ taskQueue: 'orders', args: [{ customer: 'Ada' }] });
    assert.equal(plaintext.kind, 'Error');
    assert.equal(plaintext.failure?.code, 'PlaintextPayloadRefused');
    assert.match(plaintext.failure?.message ?? '', /task queue orders of namespace billing requires encrypted payloads \(codec-required\)/);

    const sealed = await start({ taskQueue: 'orders' }, [encrypted]);
    assert.equal(sealed.kind, 'StartAccepted', sealed.failure?.message);

    const email = await start({ taskQueue: 'reports', searchAttributes: { CustomerEmail: { type: 'Keyword', value: 'ada@example.com' } } });
    assert.equal(email.kind, 'Error');
    assert.equal(email.failure?.code, 'SearchAttributeRefused');
    assert.match(email.failure?.message ?? '', /search attribute CustomerEmail is refused by namespace billing/);
  } finally {
    await t.stop();
  }
});
