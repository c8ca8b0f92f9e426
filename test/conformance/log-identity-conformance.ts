import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Log } from '../../topics/log/log.js';
import type { TestBackend } from '../support/test-env.js';
import { withInjectedFaults } from '../support/faulty-log.js';

/**
 * Which log a process talks to, and how many brokers serve it: what a local store records to know
 * the log it materialises, and what the replication defaults follow from.
 */
export function logIdentityConformance(current: () => { backend: TestBackend; log: Log }): void {
  describe('identity', () => {
    test('a log names its kind, a Kafka log its cluster id, and another client of the same log (or a fault-injecting wrapper) names the same', async () => {
      const { backend, log } = current();
      const identity = await log.identity();
      assert.equal(identity.kind, log.kind);
      if (identity.kind === 'kafka') assert.match(identity.clusterId, /^[A-Za-z0-9_-]{22}$/, 'a KRaft cluster id: 16 bytes, base64url');
      else assert.deepEqual(identity, { kind: 'embedded' });
      assert.deepEqual(await (await backend.openAnother(log)).identity(), identity);
      assert.deepEqual(await withInjectedFaults(log, { failCommitAfterAccepted: () => false }).identity(), identity);
    });

    test('the admin counts the brokers serving the log: the embedded log is one, a Kafka cluster at least one (three-broker counting is tested on a three-node cluster)', async () => {
      const { log } = current();
      const brokers = await log.admin.brokerCount();
      if (log.kind === 'embedded') assert.equal(brokers, 1);
      else assert.ok(Number.isInteger(brokers) && brokers >= 1, `${brokers} brokers`);
    });
  });
}
