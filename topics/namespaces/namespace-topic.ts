import type { TopicCatalog } from '../catalog.js';
import { CompactedTopicTail } from '../log/compacted-topic-tail.js';
import type { Log, LogRecord } from '../log/log.js';
import type { Namespace } from '../schemas/namespace/index.js';
import { namespaceCodec, type Serde } from '../serde/index.js';

/** Options of a namespace topic reader. */
export interface NamespaceTopicOptions {
  /** How often the topic is read for changes made elsewhere; default 500 ms. */
  readonly pollMs?: number;
}

const shared = new WeakMap<Log, Map<string, { opening: Promise<NamespaceTopic>; users: number }>>();

/**
 * The compacted `<prefix>.namespaces` topic, read from its start and then tailed: the latest
 * record of a name is that namespace. This is the contract's view, which a worker needs (the
 * rates of its task queue) without the engine's rules for changing a namespace; the engine's
 * registry builds those on top of it.
 */
export class NamespaceTopic {
  private readonly byName = new Map<string, Namespace>();
  private readonly listeners = new Set<() => void>();
  private readonly tail: CompactedTopicTail;

  private constructor(
    log: Log,
    private readonly catalog: TopicCatalog,
    private readonly serde: Serde,
  ) {
    this.tail = new CompactedTopicTail(log, catalog.namespaces, (records) => this.apply(records));
  }

  /** Creates the topic if needed, reads it to its end and keeps tailing it. */
  static async open(log: Log, catalog: TopicCatalog, serde: Serde, options: NamespaceTopicOptions = {}): Promise<NamespaceTopic> {
    // Workers may start before any engine node created the fixed topics. A worker whose Kafka
    // principal may not create topics (see the ACL recipe in the README) reads the existing one.
    await log.admin.createTopics(catalog.fixedTopics.filter((t) => t.name === catalog.namespaces)).catch(() => undefined);
    const topic = new NamespaceTopic(log, catalog, serde);
    await topic.catchUp();
    topic.tail.follow(options.pollMs ?? 500);
    return topic;
  }

  /**
   * A reader shared by every caller on the same log and topic (the workers of one process), so
   * each process tails the topic once; `release` closes it when its last user is done.
   */
  static async acquire(log: Log, catalog: TopicCatalog, serde: Serde): Promise<{ topic: NamespaceTopic; release: () => Promise<void> }> {
    const byTopic = shared.get(log) ?? new Map<string, { opening: Promise<NamespaceTopic>; users: number }>();
    shared.set(log, byTopic);
    let entry = byTopic.get(catalog.namespaces);
    if (!entry) {
      entry = { opening: NamespaceTopic.open(log, catalog, serde), users: 0 };
      byTopic.set(catalog.namespaces, entry);
      entry.opening.catch(() => byTopic.delete(catalog.namespaces));
    }
    entry.users++;
    const held = entry;
    const topic = await held.opening;
    let released = false;
    return {
      topic,
      release: async () => {
        if (released) return;
        released = true;
        if (--held.users > 0) return;
        byTopic.delete(catalog.namespaces);
        await topic.close();
      },
    };
  }

  /** The latest record of the name, or undefined when the topic holds none. */
  get(name: string): Namespace | undefined {
    return this.byName.get(name);
  }

  /** Every namespace the topic holds, in no particular order. */
  all(): IterableIterator<Namespace> {
    return this.byName.values();
  }

  /** Calls `listener` after every change read from the topic; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads what was written since the last read (serialised: one read at a time). */
  catchUp(): Promise<void> {
    return this.tail.catchUp();
  }

  /** Writes the namespace's record and reads the topic to it, so the caller reads its own write. */
  async put(namespace: Namespace): Promise<Namespace> {
    await this.tail.write(namespace.name, await this.serde.encode(namespaceCodec, namespace, this.catalog.namespaces));
    return this.get(namespace.name) ?? namespace;
  }

  async close(): Promise<void> {
    await this.tail.close();
  }

  private async apply(records: readonly LogRecord[]): Promise<void> {
    let changed = false;
    for (const record of records) {
      const name = record.key?.toString('utf8');
      if (!name) continue;
      if (record.value === null) this.byName.delete(name);
      else {
        try {
          this.byName.set(name, await this.serde.decode(namespaceCodec, record.value));
        } catch {
          // A record this reader cannot decode (a newer schema) keeps the last one it could.
          continue;
        }
      }
      changed = true;
    }
    if (changed) for (const listener of this.listeners) listener();
  }
}
