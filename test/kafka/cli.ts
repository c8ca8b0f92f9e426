/**
 * Developer broker control: `tsx test/kafka/cli.ts start [--nodes 3] [--version X] [--port 9092] | stop | status`.
 *
 * `start` leaves the broker running in the background (detached) and records it in
 * `<cache>/dev.json`, so `npm test` and `npm start` can use it via LOGBOOK_KAFKA_BROKERS.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleKafkaTools, resolveCacheDir } from './assemble.js';
import { startKafka } from './broker.js';
import { isAlive, terminate } from './processes.js';
import { securedListenerEnv, type SecuredListener } from './secured-listener.js';

/** What `start` records about the developer broker. */
interface DevBroker {
  brokers: string[];
  pids: number[];
  dataDir: string;
  version: string;
  /** Kafka's command-line tools (kafka-console-consumer.sh, kafka-consumer-groups.sh, kafka-topics.sh). */
  bin?: string;
  secured?: SecuredListener;
}

const devFile = () => join(resolveCacheDir(), 'dev.json');

async function readDev(): Promise<DevBroker | undefined> {
  if (!existsSync(devFile())) return undefined;
  return JSON.parse(await readFile(devFile(), 'utf8')) as DevBroker;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** Prints the environment a shell needs to reach the broker, plaintext and secured. */
function printEnv(dev: DevBroker): void {
  console.log(`LOGBOOK_KAFKA_BROKERS=${dev.brokers.join(',')}`);
  if (dev.bin) console.log(`LOGBOOK_KAFKA_BIN=${dev.bin}`);
  for (const [name, value] of Object.entries(dev.secured ? securedListenerEnv(dev.secured) : {})) console.log(`${name}=${value}`);
}

async function start(args: string[]): Promise<void> {
  const existing = await readDev();
  if (existing && existing.pids.some(isAlive)) {
    console.log(`Kafka ${existing.version} is already running (stop it with \`npm run kafka:stop\`).`);
    printEnv(existing);
    return;
  }
  const nodes = Number(flag(args, '--nodes') ?? '1');
  if (nodes !== 1 && nodes !== 3) throw new Error('--nodes must be 1 or 3');
  const port = flag(args, '--port');
  if (port !== undefined && !/^\d+$/.test(port)) throw new Error(`--port must be a port number, got ${port}`);
  // The tools first: a download that fails must not leave brokers running that no file records.
  const bin = await assembleKafkaTools({ version: flag(args, '--version'), onProgress: (line) => console.log(line) });
  const kafka = await startKafka({
    nodes,
    version: flag(args, '--version'),
    ...(port ? { port: Number(port) } : {}),
    detached: true,
    secured: true,
    onProgress: (line) => console.log(line),
  });
  const dev: DevBroker = { bin, brokers: kafka.brokers, pids: kafka.pids, dataDir: kafka.dataDir, version: kafka.version, ...(kafka.secured ? { secured: kafka.secured } : {}) };
  await writeFile(devFile(), JSON.stringify(dev, null, 2) + '\n');
  console.log(`Kafka logs: ${join(kafka.dataDir, 'node-*', 'kafka.log')}`);
  printEnv(dev);
}

async function stop(): Promise<void> {
  const dev = await readDev();
  if (!dev) {
    console.log('No developer Kafka recorded; nothing to stop.');
    return;
  }
  await Promise.all(dev.pids.map((pid) => terminate(pid)));
  await rm(dev.dataDir, { recursive: true, force: true });
  await rm(devFile(), { force: true });
  console.log(`Stopped Kafka ${dev.version} (${dev.brokers.join(',')}).`);
}

async function status(): Promise<void> {
  const dev = await readDev();
  if (!dev) {
    console.log('No developer Kafka recorded (start one with `npm run kafka:start`).');
    process.exitCode = 1;
    return;
  }
  const alive = dev.pids.filter(isAlive);
  console.log(`Kafka ${dev.version}: ${alive.length}/${dev.pids.length} node(s) running, data in ${dev.dataDir}`);
  printEnv(dev);
  if (alive.length < dev.pids.length) process.exitCode = 1;
}

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = { start: () => start(rest), stop, status };
const run = command ? commands[command] : undefined;
if (!run) {
  console.error('usage: tsx test/kafka/cli.ts start [--nodes 1|3] [--version X.Y.Z] | stop | status');
  process.exit(2);
}
run().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
