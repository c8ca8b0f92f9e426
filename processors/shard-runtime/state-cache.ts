import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';

/**
 * An LRU of decoded mutable states of one shard, so a hot workflow is not decoded from the store
 * for every input. It holds only committed states: the processor updates it after each commit and
 * clears it whenever the shard is corrupted or lost.
 */
export class StateCache {
  private readonly entries = new Map<string, MutableStateSnapshot | null>();

  constructor(private readonly capacity: number) {}

  /** The cached state (`null` = known absent), or `undefined` when not cached. */
  get(key: string): MutableStateSnapshot | null | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert to mark as most recently used.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: MutableStateSnapshot | null): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
