/**
 * The speed-of-light loop (speed-of-light.ts) on @platformatic/kafka instead of kafkajs, with the
 * same shape: one transactional producer per input partition, a read_committed group consumer
 * without auto-commit, each transaction holding a batch's outputs and one positions record. It
 * measures whether another Kafka client would lower the engine's cost per record (issue 12's
 * lever 6); the engine itself runs on kafkajs only.
 */
// Test tooling only, like kafkajs in speed-of-light.ts: the engine reaches Kafka through topics/.
import { Consumer, FetchIsolationLevels, MessagesStreamModes, Producer } from '@platformatic/kafka';
import type { LoopInput, LoopOutput, TransactionCommitter } from './speed-of-light.js';

/**
 * Retries of a CONCURRENT_TRANSACTIONS answer soon, as the kafkajs loop does (10 ms there): the
 * default second stalls a shard, and 20 ms cost a fifth of the transactions of small batches here.
 */
const RETRY = { retries: 12, retryDelay: 5 };
/** One partition's fetch, as the kafkajs loop sets it. */
const FETCH_BYTES_PER_PARTITION = 4 * 1024 * 1024;

/** What {@link startPlatformaticLoop} needs of the run. */
export interface PlatformaticLoopOptions {
  brokers: readonly string[];
  /** The run's name: transactional ids and the group id derive from it. */
  run: string;
  topics: { input: string };
  partitions: number;
  maxBatch: number;
  loop: {
    onBatch(partition: number, messages: readonly LoopInput[], commit: TransactionCommitter, isRunning: () => boolean, committed: (last: bigint) => Promise<void>): Promise<void>;
    /** Ends the run with `error` (a consumer failure). */
    fail(error: unknown): void;
  };
}

/**
 * Starts the loop: fences every producer, then consumes the input and hands each partition's
 * records to the loop in order, in batches of what arrived while the previous transaction ran.
 * @returns a function that stops the consumer and the producers
 */
export async function startPlatformaticLoop(options: PlatformaticLoopOptions): Promise<() => Promise<void>> {
  const bootstrapBrokers = [...options.brokers];
  const producers: Producer[] = [];
  let consumer: Consumer | undefined;
  let running = true;
  const stop = async () => {
    running = false;
    await Promise.resolve(consumer?.close(true)).catch(() => undefined);
    await Promise.all(producers.map((p) => p.close().catch(() => undefined)));
  };
  try {
    for (let p = 0; p < options.partitions; p++) {
      const producer = new Producer({ clientId: `${options.run}-producer-${p}`, bootstrapBrokers, idempotent: true, transactionalId: `${options.run}-history-${p}`, acks: -1, autocreateTopics: false, ...RETRY });
      producers.push(producer);
      // InitProducerId (fencing) before the clock starts, as the kafkajs loop does; nothing to abort.
      await (await producer.beginTransaction()).cancel();
    }
    const commit: TransactionCommitter = async (partition, outputs) => {
      const tx = await producers[partition]!.beginTransaction();
      try {
        await tx.send({ messages: outputs.map(toMessage) });
        await tx.commit();
      } catch (error) {
        await tx.abort().catch(() => undefined);
        throw error;
      }
    };
    consumer = new Consumer({ clientId: `${options.run}-consumer`, groupId: `${options.run}-group`, bootstrapBrokers, sessionTimeout: 10_000, heartbeatInterval: 1_000 });
    const stream = await consumer.consume({
      topics: [options.topics.input],
      mode: MessagesStreamModes.EARLIEST,
      autocommit: false,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
      // As the engine's consumer: 100 ms fetch wait, 4 MiB per partition.
      maxWaitTime: 100,
      maxBytesPerPartition: FETCH_BYTES_PER_PARTITION,
      maxBytes: 4 * FETCH_BYTES_PER_PARTITION,
    });
    // Like KafkaJS, which holds one fetched batch of a partition (up to 4 MiB) and fetches it again
    // only once that batch is handled: the stream is paused while a partition holds 4 MiB, so
    // neither loop reads further ahead of its commits than the other.
    const queues: PartitionQueue[] = Array.from({ length: options.partitions }, () => new PartitionQueue(options.maxBatch, FETCH_BYTES_PER_PARTITION, () => {
      if (stream.isPaused() && queues.every((q) => !q.full)) stream.resume();
    }));
    stream.on('data', (message) => {
      const queue = queues[message.partition]!;
      queue.push({ key: message.key ?? null, value: message.value ?? null, offset: message.offset });
      if (queue.full) stream.pause();
      queue.drain(async (batch) => options.loop.onBatch(message.partition, batch, commit, () => running, async () => undefined));
    });
    stream.on('error', (error) => options.loop.fail(error));
    return stop;
  } catch (error) {
    await stop();
    throw error;
  }
}

function toMessage(output: LoopOutput): { topic: string; key?: Buffer; value: Buffer; partition: number } {
  const bytes = (data: Buffer | string) => (typeof data === 'string' ? Buffer.from(data) : data);
  return { topic: output.topic, ...(output.key === null ? {} : { key: bytes(output.key) }), value: bytes(output.value), partition: output.partition };
}

/** One partition's records waiting for a transaction; one transaction at a time takes what has arrived. */
class PartitionQueue {
  private readonly waiting: LoopInput[] = [];
  private waitingBytes = 0;
  private draining = false;

  constructor(
    private readonly maxBatch: number,
    private readonly maxBytes: number,
    private readonly onTaken: () => void,
  ) {}

  /** A fetch's worth of records waits. */
  get full(): boolean {
    return this.waitingBytes >= this.maxBytes;
  }

  push(input: LoopInput): void {
    this.waiting.push(input);
    this.waitingBytes += input.value?.length ?? 0;
  }

  drain(commit: (batch: LoopInput[]) => Promise<void>): void {
    if (this.draining) return;
    this.draining = true;
    // Let the rest of the fetched records arrive before the first transaction takes its batch.
    setImmediate(async () => {
      try {
        while (this.waiting.length > 0) {
          const batch = this.waiting.splice(0, this.maxBatch);
          for (const input of batch) this.waitingBytes -= input.value?.length ?? 0;
          this.onTaken();
          await commit(batch);
        }
      } catch {
        // The loop records the failure and ends the run.
      } finally {
        this.draining = false;
      }
    });
  }
}
