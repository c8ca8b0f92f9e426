import type { Log, LogRecord, Producer } from './log.js';

/**
 * Reads a one-partition compacted topic from its start and then tails it, one read at a time,
 * handing each batch to `apply`; writes go to the same partition and are read back before they
 * resolve, so a writer sees its own write. What the namespace and ingress registries share.
 */
export class CompactedTopicTail {
  private nextOffset = 0;
  private reading: Promise<void> = Promise.resolve();
  private poller: NodeJS.Timeout | undefined;
  private producer: Producer | undefined;
  private closed = false;

  constructor(
    private readonly log: Log,
    private readonly topic: string,
    private readonly apply: (records: readonly LogRecord[]) => void | Promise<void>,
  ) {}

  /** Reads again every `pollMs` (errors are left to the next read) until {@link close}. */
  follow(pollMs: number): void {
    const poll = () => {
      this.poller = setTimeout(() => void this.catchUp().catch(() => undefined).finally(() => !this.closed && poll()), pollMs);
      this.poller.unref();
    };
    poll();
  }

  /** Reads what was written since the last read (serialised: one read at a time). */
  catchUp(): Promise<void> {
    const next = this.reading.then(async () => {
      const result = await this.log.readPartition(this.topic, 0, this.nextOffset, (records) => this.apply(records));
      this.nextOffset = result.nextOffset;
    });
    this.reading = next.catch(() => undefined);
    return next;
  }

  /** Writes one record (a null value deletes the key) and reads up to it. */
  async write(key: string, value: Buffer | null): Promise<void> {
    this.producer ??= await this.log.producer();
    await this.producer.send([{ topic: this.topic, partition: 0, key, value }]);
    await this.catchUp();
  }

  /** Stops following and closes the producer. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.poller);
    await this.reading;
    await this.producer?.close().catch(() => undefined);
  }
}
