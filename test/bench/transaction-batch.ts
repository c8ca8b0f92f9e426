/**
 * Times one transactional batch of 100 records (begin, send, commit) through the log interface,
 * on the real broker and on the embedded log, side by side in one run.
 *
 *   npx tsx test/bench/transaction-batch.ts [--runs 30]
 *
 * Uses LOGBOOK_KAFKA_BROKERS when set, otherwise starts (and stops) a local broker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from '../../topics/log/log.js';
import { openLog } from '../../topics/log/open-log.js';
import { startKafka } from '../kafka/broker.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 30);
const RECORDS = 100;

async function time(log: Log, label: string): Promise<number[]> {
  const topic = `bench-tx-${Date.now()}`;
  await log.admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
  const producer = await log.transactionalProducer(`bench-${label}-${Date.now()}`);
  const value = Buffer.alloc(200, 1);
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = process.hrtime.bigint();
    const tx = await producer.begin();
    await tx.send(Array.from({ length: RECORDS }, (_, n) => ({ topic, partition: 0, key: `k${n}`, value })));
    await tx.commit();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i >= 3) samples.push(ms); // the first transactions warm up connections and the JIT
    process.stderr.write(`\r${label}: ${i + 1}/${runs + 3}`);
  }
  process.stderr.write('\n');
  await producer.close();
  return samples;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { min: s[0]!, median: q(0.5), p90: q(0.9), max: s.at(-1)! };
};

const external = process.env.LOGBOOK_KAFKA_BROKERS?.split(',');
const broker = external ? undefined : await startKafka({ onProgress: (l) => console.error(l) });
const kafkaLog = await openLog({ kind: 'kafka', brokers: external ?? broker!.brokers });
const dir = await mkdtemp(join(tmpdir(), 'logbook-bench-'));
const embeddedLog = await openLog({ kind: 'embedded', directory: dir });
try {
  const kafka = stats(await time(kafkaLog, 'kafka'));
  const embedded = stats(await time(embeddedLog, 'embedded'));
  const fmt = (s: ReturnType<typeof stats>) => `min ${s.min.toFixed(1)}  median ${s.median.toFixed(1)}  p90 ${s.p90.toFixed(1)}  max ${s.max.toFixed(1)} ms`;
  console.log(`transactional batch of ${RECORDS} records × ${runs} runs`);
  console.log(`  kafka    ${fmt(kafka)}`);
  console.log(`  embedded ${fmt(embedded)}`);
} finally {
  await kafkaLog.close();
  await embeddedLog.close();
  await rm(dir, { recursive: true, force: true });
  await broker?.stop();
}
