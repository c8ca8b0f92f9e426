/**
 * Kafka's own command-line tools against a Logbook deployment, as an analyst or operator runs them
 * with the development broker's `bin/`: the README's console-consumer line prints the history
 * stream's keys, and `kafka-consumer-groups` reports lag 0 on idle task partitions (the transaction
 * markers at their ends are not lag).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assembleKafkaTools } from './assemble.js';
import { startTestEngine } from '../support/test-engine.js';
import { kafkaBrokers, waitFor } from '../support/test-env.js';

const run = promisify(execFile);

test("the README's console-consumer line prints the history stream's keys, and kafka-consumer-groups shows lag 0 on idle task partitions", { timeout: 180_000 }, async () => {
  const bin = await assembleKafkaTools({ ...(process.env.LOGBOOK_KAFKA_VERSION ? { version: process.env.LOGBOOK_KAFKA_VERSION } : {}) });
  const engine = await startTestEngine('kafka', { shards: 2 });
  try {
    const prefix = engine.engine.catalog.prefix;
    await engine.start('bookTrip', 'travel', 'trip-tools', [{ tripId: 'trip-tools' }]);
    assert.equal((await engine.result('trip-tools')).executionStatus, 'Completed');
    const brokers = kafkaBrokers().join(',');

    const { stdout } = await run(join(bin, 'kafka-console-consumer.sh'), [
      '--bootstrap-server', brokers, '--topic', `${prefix}.history`, '--from-beginning', '--isolation-level', 'read_committed',
      '--property', 'print.key=true', '--property', 'print.value=false', '--timeout-ms', '4000',
    ]).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
    const keys = stdout.split('\n').filter((l) => l.startsWith('default/trip-tools/'));
    assert.ok(keys.length >= 10, `the trip's events, keyed ns/workflowId/runId/eventId:\n${stdout}`);
    assert.match(keys[0]!, /^default\/trip-tools\/[0-9a-f-]{36}\/1$/);

    // The workers' position is committed past the markers within an idle-commit round (20 s).
    const group = `${prefix}-activity-workers-default-travel`;
    let last = '';
    const lags = await waitFor('every partition of the idle travel queue to show lag 0', async () => {
      last = (await run(join(bin, 'kafka-consumer-groups.sh'), ['--bootstrap-server', brokers, '--describe', '--group', group])).stdout;
      // PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG: a partition that never held a task has no offset ('-') and no lag.
      const rows = last.split('\n').filter((l) => l.startsWith(group)).map((row) => row.split(/\s+/));
      const idle = rows.every(([, , , current, end, lag]) => lag === '0' || (current === '-' && end === '0'));
      return rows.length > 0 && rows.some((r) => r[5] === '0') && idle ? last : undefined;
    }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; kafka-consumer-groups printed:\n${last}`);
    });
    assert.match(lags, /tasks\.activity\.default\.travel/);
  } finally {
    await engine.stop();
  }
});
