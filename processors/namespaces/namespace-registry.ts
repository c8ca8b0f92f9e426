import { LogbookError } from '../../topics/errors.js';
import type { Log } from '../../topics/log/log.js';
import type { TopicCatalog } from '../../topics/catalog.js';
import { NamespaceTopic, type NamespaceTopicOptions } from '../../topics/namespaces/namespace-topic.js';
import type { Namespace } from '../../topics/schemas/namespace/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { applyNamespaceChanges, blankNamespace, builtInDefaultNamespace, checkNamespaceName, DEFAULT_NAMESPACE, type NamespaceChanges } from './namespace-model.js';

/** Options of a registry reader. */
export interface NamespaceRegistryOptions extends NamespaceTopicOptions {
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
 * The namespace registry: the engine's rules for namespaces over the compacted
 * `<prefix>.namespaces` topic ({@link NamespaceTopic}), so every engine node, gateway and worker
 * holding one sees the same namespaces within a poll interval. `default` always exists: until
 * someone updates it, it is the built-in one.
 *
 * Writes go through {@link register} and {@link update}, which read the topic to its end first
 * (so a name registered on another node is seen) and again after writing (so the caller reads
 * its own write). Two nodes registering the same name at the same instant both succeed and the
 * later record wins: the log has no compare-and-set.
 */
export class NamespaceRegistry {
  private constructor(
    private readonly topic: NamespaceTopic,
    private readonly clock: () => number,
  ) {}

  /** Creates the topic if needed, reads it to its end and keeps tailing it. */
  static async open(log: Log, catalog: TopicCatalog, serde: Serde, options: NamespaceRegistryOptions = {}): Promise<NamespaceRegistry> {
    const topic = await NamespaceTopic.open(log, catalog, serde, options.pollMs === undefined ? {} : { pollMs: options.pollMs });
    return new NamespaceRegistry(topic, options.clock ?? Date.now);
  }

  /** The namespace, or undefined when it is not registered (`default` always is). */
  get(name: string): Namespace | undefined {
    return this.topic.get(name) ?? (name === DEFAULT_NAMESPACE ? builtInDefaultNamespace : undefined);
  }

  /** Every namespace, by name. */
  list(): Namespace[] {
    const all = new Map([[DEFAULT_NAMESPACE, builtInDefaultNamespace], ...[...this.topic.all()].map((n) => [n.name, n] as const)]);
    return [...all.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Calls `listener` after every change read from the topic; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    return this.topic.onChange(listener);
  }

  /**
   * Registers a namespace.
   * @throws InvalidNamespaceError for a bad name or setting; NamespaceAlreadyExistsError
   */
  async register(name: string, changes: NamespaceChanges): Promise<Namespace> {
    checkNamespaceName(name);
    await this.catchUp();
    if (this.get(name)) throw new NamespaceAlreadyExistsError(name);
    return this.topic.put(applyNamespaceChanges(blankNamespace(name, this.clock()), changes, this.clock()));
  }

  /**
   * Changes a registered namespace (`default` included).
   * @throws NamespaceNotFoundError; InvalidNamespaceError
   */
  async update(name: string, changes: NamespaceChanges): Promise<Namespace> {
    await this.catchUp();
    const current = this.get(name);
    if (!current) throw new NamespaceNotFoundError(name);
    return this.topic.put(applyNamespaceChanges(current, changes, this.clock()));
  }

  /** Reads what was written since the last read (serialised: one read at a time). */
  catchUp(): Promise<void> {
    return this.topic.catchUp();
  }

  async close(): Promise<void> {
    await this.topic.close();
  }
}
