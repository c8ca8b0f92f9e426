import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { Producer } from '../../topics/log/log.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { SingleObjectSerde } from '../../topics/serde/single-object-serde.js';
import { AuditWriter } from './audit-writer.js';

const record: AuditRecord = {
  time: 1, principalSubject: 'anonymous', principalMethod: 'none', requestId: null, method: 'POST', route: '/api/v1/namespaces/:namespace/workflows',
  action: 'StartWorkflow', namespace: 'default', workflowId: 'w', runId: null, resourceId: null, statusCode: 201, errorCode: null, remoteAddress: null, nodeId: 'n',
};

async function counted(registry: Registry, name: string): Promise<number> {
  return (await registry.getSingleMetric(name)!.get()).values.reduce((sum, v) => sum + v.value, 0);
}

test('a failed audit write neither throws nor rejects: it is told in one line and counted, and the next write goes through', async () => {
  const registry = new Registry();
  const lines: string[] = [];
  let failNext = true;
  const sent: string[] = [];
  const producer: Producer = {
    async send(records) {
      if (failNext) {
        failNext = false;
        throw new Error('broker unreachable');
      }
      sent.push(...records.map((r) => `${r.topic} ${String(r.key)}`));
      return [];
    },
    close: async () => undefined,
  };
  const writer = new AuditWriter({ log: { producer: async () => producer }, catalog: { audit: 'acme.audit' }, serde: new SingleObjectSerde(), metrics: registry, onFailure: (line) => lines.push(line) });
  assert.equal(writer.append(record), undefined, 'append returns at once');
  await writer.flush();
  assert.equal(await counted(registry, 'logbook_audit_write_failures_total'), 1);
  assert.match(lines.join('\n'), /StartWorkflow.*broker unreachable/);
  writer.append(record);
  await writer.flush();
  assert.deepEqual(sent, ['acme.audit default'], 'keyed by namespace on the audit topic');
  assert.equal(await counted(registry, 'logbook_audit_records_total'), 1);
});

test('a producer that cannot be opened is a counted failure too, and the writer opens one again for the next record', async () => {
  const registry = new Registry();
  let opens = 0;
  const writer = new AuditWriter({
    log: { producer: async () => (++opens === 1 ? Promise.reject(new Error('no cluster')) : { send: async () => [], close: async () => undefined }) },
    catalog: { audit: 'logbook.audit' }, serde: new SingleObjectSerde(), metrics: registry, onFailure: () => { throw new Error('the logger fails too'); },
  });
  writer.append(record);
  await writer.flush();
  writer.append(record);
  await writer.flush();
  assert.equal(opens, 2);
  assert.equal(await counted(registry, 'logbook_audit_write_failures_total'), 1);
  assert.equal(await counted(registry, 'logbook_audit_records_total'), 1);
});

test('flush waits for a write still under way, and gives up after its bound when the broker never answers, telling how many records it leaves', async () => {
  let release: () => void = () => undefined;
  const sent: string[] = [];
  const slow: Producer = {
    send: (records) => new Promise((done) => {
      release = () => {
        sent.push(...records.map((r) => r.topic));
        done([]);
      };
    }),
    close: async () => undefined,
  };
  const lines: string[] = [];
  const writer = new AuditWriter({ log: { producer: async () => slow }, catalog: { audit: 'slow.audit' }, serde: new SingleObjectSerde(), metrics: new Registry(), onFailure: (line) => lines.push(line) });
  writer.append(record);
  let flushed = false;
  const flushing = writer.flush().then((done) => {
    flushed = done;
  });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(flushed, false, 'flush waits while the write is under way');
  release();
  await flushing;
  assert.equal(flushed, true);
  assert.deepEqual(sent, ['slow.audit']);

  const stuck = new AuditWriter({ log: { producer: async () => ({ send: () => new Promise(() => undefined), close: async () => undefined }) }, catalog: { audit: 'stuck.audit' }, serde: new SingleObjectSerde(), metrics: new Registry(), onFailure: (line) => lines.push(line) });
  stuck.append(record);
  const began = Date.now();
  assert.equal(await stuck.flush(100), false, 'a broker that never answers does not hold a stopping node');
  assert.ok(Date.now() - began < 2_000);
  assert.match(lines.join('\n'), /1 record\(s\) still unwritten after 100 ms/);
});
