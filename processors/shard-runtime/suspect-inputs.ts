import { FencedError } from '../../topics/errors.js';
import type { InputPositions, LogRecord } from '../../topics/log/log.js';

/** Failures of the same input in a row after which it is quarantined. */
export const QUARANTINE_AFTER_FAILURES = 2;

/** Why an input was quarantined: the failure it caused the second time. */
export interface Quarantine {
  readonly reason: string;
}

const positionOf = (record: LogRecord) => `${record.topic}:${record.offset}`;

/**
 * The inputs under suspicion of failing their shard (LittleHorse's per-record isolation, for the
 * failures no step of the input pipeline caught: a record the broker refuses at commit, a bug
 * nobody foresaw). Every step of handling one input is isolated already; this covers the rest.
 *
 * When a batch fails in a way that may be its inputs' fault, each of them is suspected once, and
 * the shard then runs in careful mode — one input per batch, no timers — until it is past them.
 * An input that fails again on its own has failed twice in a row and is quarantined: the next
 * batch dead-letters it instead of applying it, and the shard goes on. Infrastructure failures
 * (fenced, or anything the log calls retriable: a broker down, a timeout) never count, so an
 * outage cannot quarantine good inputs. It lives as long as the node holds the shard, across
 * re-fences, so a shard re-opened after a failure still knows what failed.
 */
export class SuspectInputs {
  private readonly failures = new Map<string, { count: number; reason: string }>();

  /** True when the last failure may have been an input's: take one input per batch until it is resolved. */
  get careful(): boolean {
    return this.failures.size > 0;
  }

  /** Records a failed batch; counts it against its inputs unless the error is the infrastructure's. */
  onBatchFailed(records: readonly LogRecord[], error: unknown): void {
    if (!blamesInputs(error)) return;
    const reason = error instanceof Error ? error.message : String(error);
    for (const record of records) {
      const key = positionOf(record);
      const count = (this.failures.get(key)?.count ?? 0) + 1;
      this.failures.set(key, { count, reason });
    }
  }

  /** The quarantine of an input that failed twice in a row, if it did. */
  quarantined(record: LogRecord): Quarantine | undefined {
    const failure = this.failures.get(positionOf(record));
    return failure && failure.count >= QUARANTINE_AFTER_FAILURES ? { reason: failure.reason } : undefined;
  }

  /** Inputs committed (applied or dead-lettered) are no longer suspect. */
  onCommitted(records: readonly LogRecord[]): void {
    for (const record of records) this.failures.delete(positionOf(record));
  }

  /** After a restore: inputs before the restored positions were committed by some owner. */
  onRestored(positions: InputPositions): void {
    for (const key of [...this.failures.keys()]) {
      const cut = key.lastIndexOf(':');
      if (Number(key.slice(cut + 1)) < (positions[key.slice(0, cut)] ?? 0)) this.failures.delete(key);
    }
  }
}

/** True for a failure that may be caused by the batch's inputs rather than by the log or the broker. */
function blamesInputs(error: unknown): boolean {
  if (error instanceof FencedError) return false;
  return (error as { retriable?: unknown } | null)?.retriable !== true;
}
