/**
 * The Kafka "speed of light": the fastest consume → transform → produce loop with one transaction
 * per batch that KafkaJS allows on this broker, written directly on kafkajs with the shape of the
 * shard processor (one transactional producer per input partition, read_committed group consumer
 * without auto-commit, each batch's outputs plus one input-positions record on a compacted state
 * topic committed together). It carries none of the engine's work (Avro, state machine, stores), so
 * the engine's throughput can be read against it: whatever the engine loses below this line is ours.
 *
 * The same loop runs on @platformatic/kafka too (`client: 'platformatic'`, see
 * speed-of-light-platformatic.ts), so the two Kafka clients can be compared side by side.
 *
 * Run it with `npx tsx test/bench/speed-of-light-cli.ts`.
 */
import { randomBytes } from 'node:crypto';
// Test tooling only: the engine reaches Kafka through topics/, never kafkajs directly.
import type { Consumer, Producer } from 'kafkajs';
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { producerWithCachedCoordinator } from '../../topics/log/kafka/transaction-coordinator-cache.js';

/** Options of {@link runSpeedOfLight}. */
export interface SpeedOfLightOptions {
  /** `host:port` of the brokers. */
  brokers: string[];
  /** Input partitions, each with its own transactional producer. Default 4. */
  partitions?: number;
  /** Input records preloaded (evenly across partitions) and then processed. Default 20,000. */
  records?: number;
  /** Size of each input and output value in bytes. Default 200. */
  recordBytes?: number;
  /** Most input records committed in one transaction. Default 500. */
  maxBatch?: number;
  /** The Kafka client the loop runs on (topics and preload always use kafkajs). Default kafkajs. */
  client?: SpeedOfLightClient;
  /** Receives human-readable progress lines (about every 2 s while the loop runs). */
  onProgress?: (line: string) => void;
}

/** The Kafka clients the loop can run on. */
export type SpeedOfLightClient = 'kafkajs' | 'platformatic';

/** Figures of one run, measured from the first consumed batch until every output is committed. */
export interface SpeedOfLightResult {
  records: number;
  seconds: number;
  recordsPerSecond: number;
  transactions: number;
  transactionsPerSecond: number;
  /** Median number of input records per transaction. */
  medianBatch: number;
  /** Begin + send + commit of one transaction, as the loop waits for it. */
  p50TransactionMs: number;
  p99TransactionMs: number;
  /** Requests the broker answered with CONCURRENT_TRANSACTIONS (each one a KafkaJS retry back-off; not counted on platformatic). */
  concurrentTransactionRetries: number;
  /** CPU time of this process (user + system) per record while the loop ran, ms. */
  cpuMsPerRecord: number;
  /** The client the loop ran on. */
  client: SpeedOfLightClient;
}

/** One record handed to the loop, whichever client fetched it. */
export interface LoopInput {
  key: Buffer | null;
  value: Buffer | null;
  offset: bigint;
}

/** An output record of one transaction: the transformed inputs, then the positions record. */
export interface LoopOutput {
  topic: string;
  key: Buffer | string | null;
  value: Buffer | string;
  partition: number;
}

/** Commits one transaction of partition `partition`'s producer holding `outputs`. */
export type TransactionCommitter = (partition: number, outputs: readonly LoopOutput[]) => Promise<void>;

const PROGRESS_EVERY_MS = 2_000;
/** A loop that commits nothing for this long is stuck (e.g. a consumer that never got its partitions). */
const STALL_TIMEOUT_MS = 60_000;
/** The same back-off as topics/log/kafka/kafka-transactions.ts, so the baseline pays the same CONCURRENT_TRANSACTIONS waits. */
const TRANSACTIONAL_RETRY = { initialRetryTime: 10, maxRetryTime: 1_000, retries: 12, factor: 0.2, multiplier: 2 };
const CONCURRENT_TRANSACTIONS_MESSAGE = 'another concurrent operation on the same transaction';

/**
 * Creates fresh topics, preloads the input, runs the loop until every input record's output is
 * committed, then stops the clients and deletes the topics (also when the run fails).
 */
export async function runSpeedOfLight(options: SpeedOfLightOptions): Promise<SpeedOfLightResult> {
  const partitions = options.partitions ?? 4;
  const total = options.records ?? 20_000;
  const recordBytes = options.recordBytes ?? 200;
  const maxBatch = options.maxBatch ?? 500;
  const progress = options.onProgress ?? (() => undefined);
  if (partitions < 1 || total < 1 || maxBatch < 1 || recordBytes < 16) throw new Error('partitions, records and maxBatch must be ≥ 1, recordBytes ≥ 16');

  // KafkaJS only reports retries through its logger: count the CONCURRENT_TRANSACTIONS answers and stay quiet otherwise.
  let concurrentTransactionRetries = 0;
  const kafka = new Kafka({
    clientId: 'logbook-speed-of-light',
    brokers: options.brokers,
    logLevel: logLevel.ERROR,
    logCreator: () => ({ log }) => {
      if (String(log['error'] ?? '').includes(CONCURRENT_TRANSACTIONS_MESSAGE)) concurrentTransactionRetries++;
    },
  });
  const run = `sol-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const topics = { input: `${run}.input`, output: `${run}.output`, state: `${run}.state` };

  const admin = kafka.admin();
  let stopClient: (() => Promise<void>) | undefined;
  let loop: Loop | undefined;
  let created = false;
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: topics.input, numPartitions: partitions, replicationFactor: 1 },
        { topic: topics.output, numPartitions: partitions, replicationFactor: 1 },
        { topic: topics.state, numPartitions: partitions, replicationFactor: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] },
      ],
    });
    created = true;
    await preload(kafka, topics.input, partitions, total, recordBytes, progress);

    const client = options.client ?? 'kafkajs';
    const running = new Loop(topics, total, maxBatch);
    loop = running;
    progress(`loop on ${client}: ${partitions} partition(s), up to ${maxBatch} records per transaction`);
    if (client === 'platformatic') {
      // Loaded only for this comparison: the package is a development dependency of the benchmark.
      const { startPlatformaticLoop } = await import('./speed-of-light-platformatic.js');
      stopClient = await startPlatformaticLoop({ brokers: options.brokers, run, topics, partitions, maxBatch, loop: running });
    } else {
      stopClient = await startKafkaJsLoop(kafka, run, topics, partitions, running);
    }

    const ticker = setInterval(() => {
      const line = running.progressLine();
      if (line) progress(line);
    }, PROGRESS_EVERY_MS);
    try {
      await running.finished;
    } finally {
      clearInterval(ticker);
    }
    // A short run can end before the first tick: always report where it ended.
    progress(running.progressLine() ?? 'no batch consumed');
    return running.result(concurrentTransactionRetries, client);
  } finally {
    loop?.close();
    await stopClient?.().catch(() => undefined);
    if (created) await admin.deleteTopics({ topics: Object.values(topics) }).catch((e: Error) => progress(`could not delete topics: ${e.message}`));
    await admin.disconnect();
  }
}

/** Runs the loop on kafkajs: one transactional producer per partition, one read_committed group consumer. */
async function startKafkaJsLoop(kafka: Kafka, run: string, topics: { input: string }, partitions: number, loop: Loop): Promise<() => Promise<void>> {
  const producers: Producer[] = [];
  let consumer: Consumer | undefined;
  const stop = async () => {
    await consumer?.disconnect().catch(() => undefined);
    await Promise.all(producers.map((p) => p.disconnect().catch(() => undefined)));
  };
  try {
    // Open and fence every producer before the clock starts: InitProducerId is a one-off cost of taking a shard.
    for (let p = 0; p < partitions; p++) {
      // The engine's own trick, so the baseline stays the limit: the coordinator is looked up once.
      const { producer, keepCoordinator } = producerWithCachedCoordinator(kafka, {
        transactionalId: `${run}-history-${p}`,
        idempotent: true,
        maxInFlightRequests: 1,
        transactionTimeout: 10_000,
        allowAutoTopicCreation: false,
        retry: TRANSACTIONAL_RETRY,
      });
      producers.push(producer);
      await producer.connect();
      await (await producer.transaction()).abort();
      keepCoordinator();
    }
    const commit: TransactionCommitter = async (partition, outputs) => {
      const tx = await producers[partition]!.transaction();
      try {
        const byTopic = new Map<string, Array<{ key: Buffer | string | null; value: Buffer | string; partition: number }>>();
        for (const { topic, key, value, partition } of outputs) {
          const messages = byTopic.get(topic);
          if (messages) messages.push({ key, value, partition });
          else byTopic.set(topic, [{ key, value, partition }]);
        }
        await tx.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
        await tx.commit();
      } catch (error) {
        await tx.abort().catch(() => undefined);
        throw error;
      }
    };
    consumer = kafka.consumer({
      groupId: `${run}-group`,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      // As the engine's consumer: 100 ms fetch wait, 4 MiB per partition; maxBatch bounds each transaction.
      maxWaitTimeInMs: 100,
      maxBytesPerPartition: 4 * 1024 * 1024,
      maxBytes: 16 * 1024 * 1024,
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topics.input], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // Shards commit independently in the engine; consuming partitions one at a time would serialise their transactions.
      partitionsConsumedConcurrently: partitions,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning }) => {
        const inputs = batch.messages.map((m) => ({ key: m.key, value: m.value, offset: BigInt(m.offset) }));
        // Resolving advances KafkaJS's fetch position only (autoCommit is off); our positions are in the state topic.
        await loop.onBatch(batch.partition, inputs, commit, isRunning, async (last) => {
          resolveOffset(String(last));
          await heartbeat();
        });
      },
    });
    return stop;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Writes `total` input records round-robin over the partitions with an idempotent producer. */
async function preload(kafka: Kafka, topic: string, partitions: number, total: number, recordBytes: number, progress: (line: string) => void): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const started = Date.now();
    const chunk = 5_000;
    for (let first = 0; first < total; first += chunk) {
      const messages = [];
      for (let i = first; i < Math.min(total, first + chunk); i++) {
        const value = Buffer.alloc(recordBytes, i % 251);
        messages.push({ key: `workflow-${i}`, value, partition: i % partitions });
      }
      await producer.send({ topic, messages, acks: -1 });
    }
    progress(`preloaded ${total} records of ${recordBytes} bytes in ${Date.now() - started} ms`);
  } finally {
    await producer.disconnect();
  }
}

/** The consume → transform → produce loop and its measurements. */
class Loop {
  readonly finished: Promise<void>;
  private done = 0;
  private startedAt = 0;
  private endedAt = 0;
  private lastProgressAt = 0;
  private lastProgressDone = 0;
  private lastCommitAt = Date.now();
  private readonly batchSizes: number[] = [];
  private readonly transactionMs: number[] = [];
  private settle!: { resolve: () => void; reject: (error: unknown) => void };
  private failed = false;
  private readonly stallTimer: NodeJS.Timeout;

  private cpuAtStart: NodeJS.CpuUsage | undefined;
  private cpuAtEnd: NodeJS.CpuUsage | undefined;

  constructor(
    private readonly topics: { input: string; output: string; state: string },
    private readonly total: number,
    private readonly maxBatch: number,
  ) {
    this.finished = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.stallTimer = setInterval(() => {
      if (Date.now() - this.lastCommitAt > STALL_TIMEOUT_MS) this.fail(new Error(`no transaction committed for ${STALL_TIMEOUT_MS / 1000} s (${this.done}/${this.total} records done)`));
    }, 1_000);
    this.finished.then(() => this.close(), () => this.close());
  }

  /**
   * One fetched batch of one partition: commits it in transactions of at most `maxBatch` inputs,
   * calling `committed` with the last input offset of each.
   */
  async onBatch(
    partition: number,
    messages: readonly LoopInput[],
    commit: TransactionCommitter,
    isRunning: () => boolean,
    committed: (lastOffset: bigint) => Promise<void>,
  ): Promise<void> {
    if (messages.length === 0 || this.failed) return;
    if (this.startedAt === 0) {
      this.startedAt = this.lastProgressAt = Date.now();
      this.cpuAtStart = process.cpuUsage();
    }
    for (let first = 0; first < messages.length && isRunning() && !this.failed; first += this.maxBatch) {
      const inputs = messages.slice(first, first + this.maxBatch);
      const last = inputs.at(-1)!.offset;
      // The "transform": a copy of the input stamped with its offset, so output bytes are real work of the same size.
      const outputs: LoopOutput[] = inputs.map((m) => {
        const value = Buffer.from(m.value ?? Buffer.alloc(0));
        value.writeUInt32BE(Number(m.offset) >>> 0, 0);
        return { topic: this.topics.output, key: m.key, value, partition };
      });
      // Like the engine's shard positions: the next offset to read, keyed per partition so compaction keeps only the last.
      outputs.push({ topic: this.topics.state, key: `positions/${partition}`, value: JSON.stringify({ topic: this.topics.input, partition, offset: Number(last) + 1 }), partition });
      const started = process.hrtime.bigint();
      try {
        await commit(partition, outputs);
      } catch (error) {
        this.fail(error);
        throw error;
      }
      this.transactionMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      this.batchSizes.push(inputs.length);
      this.done += inputs.length;
      this.lastCommitAt = Date.now();
      if (this.done >= this.total) {
        this.endedAt = Date.now();
        this.cpuAtEnd = process.cpuUsage();
        this.settle.resolve();
        return;
      }
      await committed(last);
    }
  }

  /** Stops the stall watchdog (the run ended or failed before the loop finished). */
  close(): void {
    clearInterval(this.stallTimer);
  }

  /** Records done, overall and recent rate; undefined before the first batch. */
  progressLine(): string | undefined {
    if (this.startedAt === 0) return undefined;
    const now = Date.now();
    const recent = ((this.done - this.lastProgressDone) * 1000) / Math.max(1, now - this.lastProgressAt);
    this.lastProgressAt = now;
    this.lastProgressDone = this.done;
    const overall = (this.done * 1000) / Math.max(1, now - this.startedAt);
    return `${this.done}/${this.total} records, ${Math.round(recent)} records/s now, ${Math.round(overall)} overall, ${this.transactionMs.length} transactions`;
  }

  result(concurrentTransactionRetries: number, client: SpeedOfLightClient): SpeedOfLightResult {
    const seconds = Math.max(0.001, (this.endedAt - this.startedAt) / 1000);
    const [from, to] = [this.cpuAtStart, this.cpuAtEnd];
    const cpuMs = from && to ? (to.user - from.user + to.system - from.system) / 1000 : 0;
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      records: this.done,
      seconds: Math.round(seconds * 100) / 100,
      recordsPerSecond: Math.round(this.done / seconds),
      transactions: this.transactionMs.length,
      transactionsPerSecond: round(this.transactionMs.length / seconds),
      medianBatch: percentile(this.batchSizes, 0.5),
      p50TransactionMs: round(percentile(this.transactionMs, 0.5)),
      p99TransactionMs: round(percentile(this.transactionMs, 0.99)),
      concurrentTransactionRetries,
      cpuMsPerRecord: Math.round((cpuMs / Math.max(1, this.done)) * 1000) / 1000,
      client,
    };
  }

  /** Ends the run with `error` (once). */
  fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.settle.reject(error);
  }
}

/** Nearest-rank percentile (0 for no samples). */
function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
