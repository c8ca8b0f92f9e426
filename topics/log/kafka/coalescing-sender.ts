import type { OutgoingRecord, RecordPosition } from '../log.js';

/** Sends one batch of records and reports where they landed. */
export type BatchSend = (records: readonly OutgoingRecord[]) => Promise<RecordPosition[]>;

interface Waiting {
  readonly records: readonly OutgoingRecord[];
  readonly resolve: (positions: RecordPosition[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Coalesces concurrent sends into one request. The idempotent producer allows one request in
 * flight (KafkaJS risks OUT_OF_ORDER_SEQUENCE_NUMBER otherwise), so without this every caller
 * would wait a full round trip behind the previous one; instead, everything that arrives while a
 * request is in flight goes out together in the next one. Order is kept: records are sent in the
 * order `send` was called. A failed request fails exactly the callers whose records it carried.
 */
export class CoalescingSender {
  private queue: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly sendBatch: BatchSend,
    private readonly maxRecordsPerRequest = 5_000,
  ) {}

  send(records: readonly OutgoingRecord[]): Promise<RecordPosition[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ records, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          const positions = await this.sendBatch(batch.flatMap((w) => w.records));
          // Positions are per partition written, shared by the callers of this request.
          for (const waiting of batch) waiting.resolve(positions);
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The next callers whose records fit in one request (at least one caller). */
  private take(): Waiting[] {
    let count = 0;
    let taken = 0;
    while (taken < this.queue.length && (taken === 0 || count + this.queue[taken]!.records.length <= this.maxRecordsPerRequest)) {
      count += this.queue[taken]!.records.length;
      taken++;
    }
    return this.queue.splice(0, taken);
  }
}
