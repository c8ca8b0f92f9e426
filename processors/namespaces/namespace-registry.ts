import type { TopicCatalog } from '../../topics/catalog.js';
import { LogbookError } from '../../topics/errors.js';
import type { Log, LogRecord } from '../../topics/log/log.js';
import { CompactedTopicTail } from '../compacted-topic-tail.js';
import type { Namespace } from '../../topics/schemas/namespace/index.js';
import { namespaceCodec, type Serde } from '../../topics/serde/index.js';
import { applyNamespaceChanges, blankNamespace, builtInDefaultNamespace, checkNamespaceName, DEFAULT_NAMESPACE, type NamespaceChanges } from './namespace-model.js';

const shared = new WeakMap<Log, Map<string, { opening: Promise<NamespaceRegistry>; users: number }>>();

/** Options of a registry reader. */
export interface NamespaceRegistryOptions {
  /** How often the topic is read for changes made elsewhere; default 500 ms. */
  readonly pollMs?: number;
  readonly clock?: () => number;
}

/** A namespace name that is not registered (404, as Temporal's `NamespaceNotFound`). */
export class NamespaceNotFoundError extends LogbookError {
  constructor(name: string) {
    super('NamespaceNotFound', `namespace ${name} is not registered`);
  }
}

/** A register call for a name that exists (409, as Temporal's `NamespaceAlreadyExists`). */
export class NamespaceAlreadyExistsError extends LogbookError {
  constructor(name: string) {
    super('NamespaceAlreadyExists', `namespace ${name} is already registered`);
  }
}

/**
 * The namespace registry: the compacted `<prefix>.namespaces` topic read from its start and then
 * tailed, so every engine node, gateway and worker holding one sees the same namespaces within a
 * poll interval. The latest record of a name is the namespace. `default` always exists: until
 * someone updates it, it is the built-in one.
 *
 * Writes go through {@link register} and {@link update}, which read the topic to its end first
 * (so a name registered on another node is seen) and again after writing (so the caller reads
 * its own write). Two nodes registering the same name at the same instant both succeed and the
 * later record wins: the log has no compare-and-set.
 */
export class NamespaceRegistry {
  private readonly byName = new Map<string, Namespace>();
  private readonly listeners = new Set<() => void>();
  private readonly tail: CompactedTopicTail;

  private constructor(
    log: Log,
    private readonly catalog: TopicCatalog,
    private readonly serde: Serde,
    private readonly clock: () => number,
  ) {
    this.tail = new CompactedTopicTail(log, catalog.namespaces, (records) => this.apply(records));
  }

  /** Creates the topic if needed, reads it to its end and keeps tailing it. */
  static async open(log: Log, catalog: TopicCatalog, serde: Serde, options: NamespaceRegistryOptions = {}): Promise<NamespaceRegistry> {
    // Workers may start before any engine node created the fixed topics. A worker whose Kafka
    // principal may not create topics (see the ACL recipe in the README) reads the existing one.
    await log.admin.createTopics(catalog.fixedTopics.filter((t) => t.name === catalog.namespaces)).catch(() => undefined);
    const registry = new NamespaceRegistry(log, catalog, serde, options.clock ?? Date.now);
    await registry.catchUp();
    registry.tail.follow(options.pollMs ?? 500);
    return registry;
  }

  /**
   * A registry shared by every caller on the same log and topic (the workers of one process), so
   * each process tails the topic once; `release` closes it when its last user is done.
   */
  static async acquire(log: Log, catalog: TopicCatalog, serde: Serde): Promise<{ registry: NamespaceRegistry; release: () => Promise<void> }> {
    const byTopic = shared.get(log) ?? new Map<string, { opening: Promise<NamespaceRegistry>; users: number }>();
    shared.set(log, byTopic);
    let entry = byTopic.get(catalog.namespaces);
    if (!entry) {
      entry = { opening: NamespaceRegistry.open(log, catalog, serde), users: 0 };
      byTopic.set(catalog.namespaces, entry);
      entry.opening.catch(() => byTopic.delete(catalog.namespaces));
    }
    entry.users++;
    const held = entry;
    const registry = await held.opening;
    let released = false;
    return {
      registry,
      release: async () => {
        if (released) return;
        released = true;
        if (--held.users > 0) return;
        byTopic.delete(catalog.namespaces);
        await registry.close();
      },
    };
  }

  /** The namespace, or undefined when it is not registered (`default` always is). */
  get(name: string): Namespace | undefined {
    return this.byName.get(name) ?? (name === DEFAULT_NAMESPACE ? builtInDefaultNamespace : undefined);
  }

  /** Every namespace, by name. */
  list(): Namespace[] {
    const all = new Map([[DEFAULT_NAMESPACE, builtInDefaultNamespace], ...this.byName]);
    return [...all.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Calls `listener` after every change read from the topic; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Registers a namespace.
   * @throws InvalidNamespaceError for a bad name or setting; NamespaceAlreadyExistsError
   */
  async register(name: string, changes: NamespaceChanges): Promise<Namespace> {
    checkNamespaceName(name);
    await this.catchUp();
    if (this.get(name)) throw new NamespaceAlreadyExistsError(name);
    return this.write(applyNamespaceChanges(blankNamespace(name, this.clock()), changes, this.clock()));
  }

  /**
   * Changes a registered namespace (`default` included).
   * @throws NamespaceNotFoundError; InvalidNamespaceError
   */
  async update(name: string, changes: NamespaceChanges): Promise<Namespace> {
    await this.catchUp();
    const current = this.get(name);
    if (!current) throw new NamespaceNotFoundError(name);
    return this.write(applyNamespaceChanges(current, changes, this.clock()));
  }

  /** Reads what was written since the last read (serialised: one read at a time). */
  catchUp(): Promise<void> {
    return this.tail.catchUp();
  }

  async close(): Promise<void> {
    await this.tail.close();
  }

  private async write(namespace: Namespace): Promise<Namespace> {
    await this.tail.write(namespace.name, await this.serde.encode(namespaceCodec, namespace, this.catalog.namespaces));
    return this.get(namespace.name) ?? namespace;
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
