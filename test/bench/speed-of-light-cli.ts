/**
 * The Kafka "speed of light" baseline from the command line (see speed-of-light.ts):
 *
 *   npx tsx test/bench/speed-of-light-cli.ts [--records 20000] [--partitions 4] [--batch 500] [--bytes 200]
 *     [--client kafkajs|platformatic|both] [--rounds 1]
 *
 * `--client both` runs the loop on kafkajs and on @platformatic/kafka in turn, `--rounds` times
 * each (the order swapping every round), and prints each client's medians and the ratios.
 * Uses LOGBOOK_KAFKA_BROKERS when set, otherwise starts (and stops) a local broker. Prints the
 * result on stdout as one JSON line (for scripts) and one human line; progress goes to stderr.
 */
import { startKafka } from '../kafka/broker.js';
import { runSpeedOfLight, type SpeedOfLightClient, type SpeedOfLightResult } from './speed-of-light.js';

/** A flag's value (`--name V` or `--name=V`), or undefined when absent. */
function flagValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** A positive integer flag (`--name N` or `--name=N`), or undefined when absent. */
function intFlag(name: string): number | undefined {
  const raw = flagValue(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

const log = (line: string) => console.error(line);
const external = process.env.LOGBOOK_KAFKA_BROKERS?.split(',').filter(Boolean);
const broker = external?.length ? undefined : await startKafka({ onProgress: log });
const clientArg = flagValue('--client') ?? 'kafkajs';
if (!['kafkajs', 'platformatic', 'both'].includes(clientArg)) throw new Error(`--client must be kafkajs, platformatic or both, got ${clientArg}`);
const clients: SpeedOfLightClient[] = clientArg === 'both' ? ['kafkajs', 'platformatic'] : [clientArg as SpeedOfLightClient];
const rounds = intFlag('--rounds') ?? 1;
try {
  const results = new Map<SpeedOfLightClient, SpeedOfLightResult[]>(clients.map((c) => [c, []]));
  for (let round = 0; round < rounds; round++) {
    for (const client of round % 2 === 0 ? clients : [...clients].reverse()) {
      const result = await runSpeedOfLight({
        brokers: broker?.brokers ?? external!,
        records: intFlag('--records'),
        partitions: intFlag('--partitions'),
        maxBatch: intFlag('--batch'),
        recordBytes: intFlag('--bytes'),
        client,
        onProgress: log,
      });
      results.get(client)!.push(result);
      console.log(JSON.stringify(result));
      console.log(
        `speed of light on ${client}: ${result.records} records in ${result.seconds} s = ${result.recordsPerSecond} records/s, ` +
          `${result.transactions} transactions (${result.transactionsPerSecond}/s, median ${result.medianBatch} records), ` +
          `transaction p50 ${result.p50TransactionMs} ms p99 ${result.p99TransactionMs} ms, ` +
          `${result.cpuMsPerRecord} ms CPU per record, ${result.concurrentTransactionRetries} CONCURRENT_TRANSACTIONS retries`,
      );
    }
  }
  if (clients.length === 2) {
    const median = (client: SpeedOfLightClient, pick: (r: SpeedOfLightResult) => number) => {
      const sorted = results.get(client)!.map(pick).sort((a, b) => a - b);
      const middle = sorted.length / 2;
      const value = Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
      return Math.round(value * 1000) / 1000;
    };
    const [a, b] = clients as [SpeedOfLightClient, SpeedOfLightClient];
    const line = (name: string, pick: (r: SpeedOfLightResult) => number) =>
      `${name}: ${a} ${median(a, pick)}, ${b} ${median(b, pick)}, ${b}/${a} ${(median(b, pick) / median(a, pick)).toFixed(2)}`;
    console.log(`medians of ${rounds} round(s):`);
    console.log(line('records/s', (r) => r.recordsPerSecond));
    console.log(line('transactions/s', (r) => r.transactionsPerSecond));
    console.log(line('CPU ms per record (this process)', (r) => r.cpuMsPerRecord));
    console.log(line('transaction p50 ms', (r) => r.p50TransactionMs));
  }
} catch (error) {
  process.exitCode = 1;
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  await broker?.stop();
}
