/**
 * The Kafka "speed of light" baseline from the command line (see speed-of-light.ts):
 *
 *   npx tsx test/bench/speed-of-light-cli.ts [--records 20000] [--partitions 4] [--batch 500] [--bytes 200]
 *
 * Uses LOGBOOK_KAFKA_BROKERS when set, otherwise starts (and stops) a local broker. Prints the
 * result on stdout as one JSON line (for scripts) and one human line; progress goes to stderr.
 */
import { startKafka } from '../kafka/broker.js';
import { runSpeedOfLight } from './speed-of-light.js';

/** A positive integer flag (`--name N` or `--name=N`), or undefined when absent. */
function intFlag(name: string): number | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  const raw = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

const log = (line: string) => console.error(line);
const external = process.env.LOGBOOK_KAFKA_BROKERS?.split(',').filter(Boolean);
const broker = external?.length ? undefined : await startKafka({ onProgress: log });
try {
  const result = await runSpeedOfLight({
    brokers: broker?.brokers ?? external!,
    records: intFlag('--records'),
    partitions: intFlag('--partitions'),
    maxBatch: intFlag('--batch'),
    recordBytes: intFlag('--bytes'),
    onProgress: log,
  });
  console.log(JSON.stringify(result));
  console.log(
    `speed of light: ${result.records} records in ${result.seconds} s = ${result.recordsPerSecond} records/s, ` +
      `${result.transactions} transactions (${result.transactionsPerSecond}/s, median ${result.medianBatch} records), ` +
      `transaction p50 ${result.p50TransactionMs} ms p99 ${result.p99TransactionMs} ms, ` +
      `${result.concurrentTransactionRetries} CONCURRENT_TRANSACTIONS retries`,
  );
} catch (error) {
  process.exitCode = 1;
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  await broker?.stop();
}
