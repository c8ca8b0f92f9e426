/**
 * Median time from start to result of one order workflow (activities instant, timers shortened),
 * one at a time, on the embedded backend and on Kafka, side by side in one run.
 *
 *   npx tsx test/bench/order-latency.ts [--runs 15]
 *
 * Uses LOGBOOK_KAFKA_BROKERS when set, otherwise starts (and stops) a local broker.
 */
import { startKafka } from '../kafka/broker.js';
import { startTestEngine } from '../support/test-engine.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 15);

async function measure(backend: 'kafka' | 'embedded'): Promise<number[]> {
  const t = await startTestEngine(backend, { shards: 4 });
  const samples: number[] = [];
  try {
    for (let i = 0; i < runs + 2; i++) {
      const id = `latency-${backend}-${Date.now()}-${i}`;
      const started = performance.now();
      await t.start('order', 'orders', id, [{ orderId: id, sku: 'b', quantity: 1, amountCents: 1, phone: '+1', packTimeout: '1h', ratingDelay: '1ms' }]);
      await t.signal(id, 'sellerPacked', [{ parcelId: 'p' }]);
      const reply = await t.result(id);
      if (reply.executionStatus !== 'Completed') throw new Error(`${id}: ${reply.kind} ${reply.failure?.message ?? ''}`);
      if (i >= 2) samples.push(performance.now() - started);
      process.stderr.write(`\r${backend}: ${i + 1}/${runs + 2}`);
    }
    process.stderr.write('\n');
  } finally {
    await t.stop();
  }
  return samples.sort((a, b) => a - b);
}

const external = process.env.LOGBOOK_KAFKA_BROKERS;
const broker = external ? undefined : await startKafka({ onProgress: (l) => console.error(l) });
if (broker) process.env.LOGBOOK_KAFKA_BROKERS = broker.brokers.join(',');
try {
  const embedded = await measure('embedded');
  const kafka = await measure('kafka');
  const fmt = (s: number[]) => `median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms  min ${s[0]!.toFixed(0)}  max ${s.at(-1)!.toFixed(0)}`;
  console.log(`order workflow, start to result, ${runs} runs one at a time (4 activities, 2 timers shortened, 1 signal)`);
  console.log(`  embedded ${fmt(embedded)}`);
  console.log(`  kafka    ${fmt(kafka)}`);
} finally {
  await broker?.stop();
}
