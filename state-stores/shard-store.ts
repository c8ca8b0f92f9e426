import { rm } from 'node:fs/promises';
import type { Log } from '../topics/log/log.js';
import { openKvStore, type KvOperation, type KvRange, type KvStore } from './kv-store.js';
import { RestoreMachine, type RestorePhase } from './restore-machine.js';

/**
 * The local state store of one shard: keyspaces materialised from the shard's changelog
 * partitions, plus a checkpoint of how far each changelog has been applied.
 *
 * The store is written only by applying changelog records — after a commit by the processor, or
 * during restore — and every application is an idempotent upsert of the record (put its value, or
 * delete on a tombstone, and re-derive secondary keys). Replaying from an older checkpoint is
 * therefore always safe; the store is a prefix of what the log committed.
 */

/** A changelog record as the store sees it. */
export interface ChangelogRecord {
  readonly topic: string;
  /** Present when known; advances the checkpoint of `topic` past it. */
  readonly offset?: number;
  readonly key: Buffer | string;
  readonly value: Buffer | null;
  /**
   * The value as its writer built it, before encoding, when the writer has it (the owner's own
   * writes); lets {@link ChangelogBinding.derive} skip decoding the bytes it was just given.
   */
  readonly decoded?: unknown;
}

/** How one changelog topic maps into the store. */
export interface ChangelogBinding {
  readonly topic: string;
  /** Keyspace the record's key is stored under (for example `m` for mutable state). */
  readonly keyspace: string;
  /** Maps a record key to its store key when the log's key does not sort right (for example unpadded event ids). */
  readonly storeKey?: (recordKey: string) => string;
  /**
   * Secondary keys derived from a value (for example timer-index entries of a state snapshot).
   * They are replaced whenever the primary key is written, so they never go stale. A derived
   * entry's value must follow from its key: an entry derived again is kept as it is, not
   * rewritten (a rewrite leaves the old version behind in LevelDB until compaction, which every
   * scan of the keyspace must skip).
   */
  readonly derive?: (key: string, value: Buffer, decoded?: unknown) => DerivedEntries | Promise<DerivedEntries>;
}

/** Secondary entries derived from one primary value. */
export type DerivedEntries = ReadonlyArray<{ keyspace: string; key: string; value: Buffer }>;

/** What one {@link ShardStore.apply} wrote: the derived keys that were not there before, by keyspace (keys within it). */
export type NewDerivedKeys = ReadonlyMap<string, readonly string[]>;

/** Checkpoint entry: next offset to apply, and when it was written (to detect too-old checkpoints). */
interface Checkpoint {
  readonly nextOffset: number;
  readonly writtenAt: number;
}

const SEP = '\u0000';
const primaryKey = (keyspace: string, key: string) => `${keyspace}${SEP}${key}`;
const derivedListKey = (keyspace: string, key: string) => `~d${SEP}${keyspace}${SEP}${key}`;
const checkpointKey = (topic: string) => `~c${SEP}${topic}`;
const text = (key: Buffer | string) => (typeof key === 'string' ? key : key.toString('utf8'));

/** Where a restore stands, reported as it goes. */
export interface RestoreProgress {
  readonly topic: string;
  readonly fromOffset: number;
  /** The next offset to apply. */
  readonly position: number;
  /** The read_committed end the restore reads to. */
  readonly endOffset: number;
  /** Records applied so far, over every topic. */
  readonly recordsApplied: number;
}

/** Options of {@link ShardStore.restore}. */
export interface RestoreOptions {
  /** The topics' `delete.retention.ms`: an older checkpoint may have missed tombstones, so the store is wiped first. */
  readonly maxCheckpointAgeMs?: number;
  readonly onProgress?: (progress: RestoreProgress) => void;
  readonly signal?: AbortSignal;
}

/** What a restore did. */
export interface RestoreResult {
  readonly recordsApplied: number;
  /** The checkpoint was too old and the store was rebuilt from offset 0. */
  readonly wiped: boolean;
}

/** Options of a shard store. */
export interface ShardStoreOptions {
  readonly directory: string;
  readonly shard: number;
  readonly bindings: readonly ChangelogBinding[];
  /** Injected clock (checkpoint age). */
  readonly now?: () => number;
}

/** The local store of one shard. */
export class ShardStore {
  private readonly bindings: Map<string, ChangelogBinding>;
  private readonly now: () => number;
  readonly restoreState = new RestoreMachine();

  private constructor(
    private kv: KvStore,
    private readonly options: ShardStoreOptions,
  ) {
    this.bindings = new Map(options.bindings.map((b) => [b.topic, b]));
    this.now = options.now ?? Date.now;
  }

  /** Opens (creating if needed) the store of a shard. */
  static async open(options: ShardStoreOptions): Promise<ShardStore> {
    return new ShardStore(await openKvStore(options.directory), options);
  }

  get shard(): number {
    return this.options.shard;
  }

  get phase(): RestorePhase {
    return this.restoreState.phase;
  }

  /** Value of `key` in a keyspace. */
  async get(keyspace: string, key: string): Promise<Buffer | undefined> {
    return this.kv.get(primaryKey(keyspace, key));
  }

  /** Entries of a keyspace in key order, optionally bounded (bounds are keys within the keyspace). */
  async *entries(keyspace: string, bounds: { gte?: string; lt?: string; limit?: number } = {}): AsyncIterable<[string, Buffer]> {
    const prefix = primaryKey(keyspace, '');
    const range: KvRange = {
      gte: prefix + (bounds.gte ?? ''),
      lt: bounds.lt === undefined ? `${keyspace}${String.fromCharCode(1)}` : prefix + bounds.lt,
      ...(bounds.limit === undefined ? {} : { limit: bounds.limit }),
    };
    for await (const [key, value] of this.kv.range(range)) yield [key.slice(prefix.length), value];
  }

  /** The next offset to apply of each changelog topic (0 when never applied). */
  async checkpoint(topic: string): Promise<Checkpoint> {
    const raw = await this.kv.get(checkpointKey(topic));
    return raw ? (JSON.parse(raw.toString('utf8')) as Checkpoint) : { nextOffset: 0, writtenAt: 0 };
  }

  /**
   * Applies changelog records in one atomic batch (later records of the same key win). Records
   * with an offset advance their topic's checkpoint past them; `checkpoints` (topic → next offset)
   * moves checkpoints explicitly, in the same batch — the processor's post-commit checkpoint of
   * what its transaction wrote, so a later restore reads only the tail. Answers the derived keys
   * it added (a processor's timer index learns its sooner deadlines from them without a scan).
   */
  async apply(records: readonly ChangelogRecord[], checkpoints: ReadonlyMap<string, number> = new Map()): Promise<NewDerivedKeys> {
    const operations: KvOperation[] = [];
    const derivedNow = new Map<string, string[]>();
    const added = new Map<string, string[]>();
    const moved = new Map<string, number>();
    for (const [topic, nextOffset] of checkpoints) if (this.bindings.has(topic)) moved.set(topic, nextOffset);
    for (const record of records) {
      const binding = this.bindings.get(record.topic);
      if (!binding) throw new RangeError(`no changelog binding for topic ${record.topic}`);
      const key = binding.storeKey ? binding.storeKey(text(record.key)) : text(record.key);
      await this.applyOne(binding, key, record, operations, derivedNow, added);
      if (record.offset !== undefined) {
        moved.set(record.topic, Math.max(moved.get(record.topic) ?? 0, record.offset + 1));
      }
    }
    for (const [topic, nextOffset] of moved) operations.push(this.checkpointOperation(topic, nextOffset));
    await this.kv.batch(operations);
    return added;
  }

  /**
   * Restores every bound changelog of this shard from the checkpoint to the read_committed end:
   * REGISTERED → RESTORING → COMPLETED. Checkpoints older than `maxCheckpointAgeMs` (the topic's
   * `delete.retention.ms`: tombstones may be gone) wipe the store first.
   */
  async restore(log: Log, options: RestoreOptions = {}): Promise<RestoreResult> {
    this.restoreState.start();
    try {
      const wiped = options.maxCheckpointAgeMs !== undefined && (await this.hasStaleCheckpoint(options.maxCheckpointAgeMs));
      if (wiped) await this.wipe();
      let recordsApplied = 0;
      // The changelogs are independent (each its own keyspace), so they are read side by side: a
      // takeover waits for the longest, not for their sum.
      await Promise.all([...this.bindings.values()].map(async (binding) => {
        const from = (await this.checkpoint(binding.topic)).nextOffset;
        const end = await log.endOffset(binding.topic, this.shard);
        options.onProgress?.({ topic: binding.topic, fromOffset: from, position: from, endOffset: end, recordsApplied });
        const result = await log.readPartition(
          binding.topic,
          this.shard,
          from,
          async (records) => {
            await this.apply(records.map((r) => ({ topic: r.topic, offset: r.offset, key: r.key ?? Buffer.alloc(0), value: r.value })));
            recordsApplied += records.length;
            options.onProgress?.({ topic: binding.topic, fromOffset: from, position: records[records.length - 1]!.offset + 1, endOffset: end, recordsApplied });
          },
          { untilOffset: end, ...(options.signal ? { signal: options.signal } : {}) },
        );
        // The end may lie past trailing transaction markers: checkpoint it so the next restore starts there.
        await this.kv.batch([this.checkpointOperation(binding.topic, result.nextOffset)]);
      }));
      this.restoreState.complete();
      return { recordsApplied, wiped };
    } catch (error) {
      this.restoreState.fail();
      throw error;
    }
  }

  /**
   * Re-dates the checkpoints without moving them: while the shard is owned and idle nothing is
   * written after them, so the store is still current, and a later takeover must not take an old
   * checkpoint for a stale store (see `maxCheckpointAgeMs` of {@link restore}).
   */
  async refreshCheckpoints(): Promise<void> {
    const operations: KvOperation[] = [];
    for (const topic of this.bindings.keys()) {
      const cp = await this.checkpoint(topic);
      if (cp.nextOffset > 0) operations.push(this.checkpointOperation(topic, cp.nextOffset));
    }
    if (operations.length > 0) await this.kv.batch(operations);
  }

  /** Deletes everything, checkpoints included. */
  async wipe(): Promise<void> {
    await this.kv.clear({});
  }

  async close(): Promise<void> {
    await this.kv.close();
  }

  /** Closes the store and deletes its directory. */
  async destroy(): Promise<void> {
    await this.kv.close();
    await rm(this.options.directory, { recursive: true, force: true });
  }

  private async applyOne(
    binding: ChangelogBinding,
    key: string,
    { value, decoded }: ChangelogRecord,
    operations: KvOperation[],
    derivedNow: Map<string, string[]>,
    added: Map<string, string[]>,
  ): Promise<void> {
    const listKey = derivedListKey(binding.keyspace, key);
    // Within one batch a later record of the same key replaces the earlier one's derived keys.
    const previous = binding.derive ? (derivedNow.get(listKey) ?? (await this.derivedKeys(listKey))) : [];
    if (value === null) {
      operations.push({ type: 'del', key: primaryKey(binding.keyspace, key) });
      if (binding.derive) {
        for (const old of previous) operations.push({ type: 'del', key: old });
        operations.push({ type: 'del', key: listKey });
        derivedNow.set(listKey, []);
      }
      return;
    }
    operations.push({ type: 'put', key: primaryKey(binding.keyspace, key), value });
    if (!binding.derive) return;
    const derived = await binding.derive(key, value, decoded);
    const keys = derived.map((d) => primaryKey(d.keyspace, d.key));
    const kept = new Set(previous);
    const wanted = new Set(keys);
    for (const old of previous) if (!wanted.has(old)) operations.push({ type: 'del', key: old });
    derived.forEach((d, i) => {
      if (kept.has(keys[i]!)) return;
      operations.push({ type: 'put', key: keys[i]!, value: d.value });
      let ofKeyspace = added.get(d.keyspace);
      if (!ofKeyspace) added.set(d.keyspace, (ofKeyspace = []));
      ofKeyspace.push(d.key);
    });
    const unchanged = wanted.size === kept.size && keys.every((k) => kept.has(k));
    if (!unchanged) operations.push({ type: 'put', key: listKey, value: Buffer.from(JSON.stringify(keys)) });
    derivedNow.set(listKey, keys);
  }

  private async derivedKeys(listKey: string): Promise<string[]> {
    const raw = await this.kv.get(listKey);
    return raw ? (JSON.parse(raw.toString('utf8')) as string[]) : [];
  }

  private checkpointOperation(topic: string, nextOffset: number): KvOperation {
    const value: Checkpoint = { nextOffset, writtenAt: this.now() };
    return { type: 'put', key: checkpointKey(topic), value: Buffer.from(JSON.stringify(value)) };
  }

  private async hasStaleCheckpoint(maxAgeMs: number): Promise<boolean> {
    for (const topic of this.bindings.keys()) {
      const cp = await this.checkpoint(topic);
      if (cp.nextOffset > 0 && this.now() - cp.writtenAt > maxAgeMs) return true;
    }
    return false;
  }
}
