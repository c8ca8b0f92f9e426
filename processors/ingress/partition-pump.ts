import { setTimeout as sleep } from 'node:timers/promises';
import { FencedError } from '../../topics/errors.js';
import type { GroupConsumer, Log, TransactionalProducer } from '../../topics/log/log.js';
import type { RecordMapper } from './record-mapper.js';

/** What one committed ingress transaction did. */
export interface IngressBatch {
  readonly partition: number;
  readonly records: number;
  readonly commands: number;
  readonly deadLetters: number;
  /** The source position committed with the batch (the next offset to read). */
  readonly position: number;
}

/** Settings of a {@link PartitionPump}. */
export interface PumpSettings {
  readonly log: Log;
  readonly consumer: GroupConsumer;
  readonly mapper: RecordMapper;
  readonly groupId: string;
  readonly sourceTopic: string;
  /** The transactional id of this source partition: a new owner's producer fences the old one's. */
  readonly transactionalId: string;
  readonly maxRecordsPerBatch: number;
  readonly onBatch: (batch: IngressBatch) => void;
  readonly onError: (partition: number, error: unknown) => void;
  /** Called once when another owner fenced this partition's producer while this member still holds it. */
  readonly onFenced: (partition: number) => void;
}

/** How long a pump waits after a failed batch before it re-fences and reads its position again. */
const RETRY_DELAY_MS = 1_000;
const MAX_RETRY_DELAY_MS = 30_000;

/** Runs an observer callback; an observer that throws must not stop the pump. */
function report(callback: () => void): void {
  try {
    callback();
  } catch {
    // The observer's own failure has nowhere better to go.
  }
}

/**
 * Moves one source partition into the command topic, exactly once: each batch of records is
 * mapped, and its commands, its dead letters and the source position after it are written in one
 * transaction. After any failure the pump opens a new producer (which aborts its own open
 * transaction), reads the group's committed position again and goes on from there, so nothing is
 * skipped and nothing is committed twice.
 */
export class PartitionPump {
  private readonly stopping = new AbortController();
  private readonly done: Promise<void>;
  private producer: TransactionalProducer | undefined;
  /** The next source offset this pump will commit past; undefined until it has read the group's. */
  private position: number | undefined;
  /** Set once a producer was opened: any later one is a re-fence after a failure. */
  private openedBefore = false;

  constructor(
    readonly partition: number,
    private readonly settings: PumpSettings,
  ) {
    this.done = this.run();
  }

  /** The committed source position, once known. */
  committedPosition(): number | undefined {
    return this.position;
  }

  /** Stops after the batch under way (whose transaction commits or aborts) and closes the producer. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.done;
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.pumpOnce(signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        await this.producer?.close().catch(() => undefined);
        this.producer = undefined;
        this.position = undefined;
        if (error instanceof FencedError) {
          report(() => this.settings.onFenced(this.partition));
          break;
        }
        report(() => this.settings.onError(this.partition, error));
        await sleep(Math.min(RETRY_DELAY_MS * 2 ** failures++, MAX_RETRY_DELAY_MS), undefined, { signal }).catch(() => undefined);
        continue;
      }
    }
    await this.producer?.close().catch(() => undefined);
    this.producer = undefined;
  }

  private async pumpOnce(signal: AbortSignal): Promise<void> {
    const s = this.settings;
    if (!this.producer) {
      // After a failure, fence only while the group still gives this member the partition: a member
      // that lost it without noticing must not fence its new owner.
      if (this.openedBefore) {
        await s.consumer.confirmMembership(signal);
        if (signal.aborted || !s.consumer.assignment().includes(this.partition)) return;
      }
      this.openedBefore = true;
      this.producer = await s.log.transactionalProducer(s.transactionalId);
    }
    if (signal.aborted) return;
    if (this.position === undefined) {
      // Read after fencing: the previous owner's open transaction was aborted, so the position is
      // the last committed one. (Kafka applies a just-committed transaction's offsets moments after
      // its markers; a record read again in that window makes the same command, which the shard
      // deduplicates by its request id.)
      const positions = await s.consumer.committedPositions(this.partition);
      if (signal.aborted) return;
      this.position = positions[s.sourceTopic] ?? 0;
      s.consumer.seek(this.partition, { [s.sourceTopic]: this.position });
    }
    const records = await s.consumer.take(this.partition, { maxRecords: s.maxRecordsPerBatch, maxBytes: 8 * 1024 * 1024, waitMs: 500, signal });
    if (records.length === 0 || signal.aborted) return;
    const mapped = await Promise.all(records.map((r) => s.mapper.map(r)));
    const next = records[records.length - 1]!.offset + 1;
    const tx = await this.producer.begin();
    await tx.send(mapped.map((m) => m.record));
    await tx.commitGroupPositions(s.groupId, this.partition, { [s.sourceTopic]: next });
    await tx.commit();
    this.position = next;
    const deadLetters = mapped.filter((m) => m.kind === 'deadLetter').length;
    s.onBatch({ partition: this.partition, records: records.length, commands: records.length - deadLetters, deadLetters, position: next });
  }
}
