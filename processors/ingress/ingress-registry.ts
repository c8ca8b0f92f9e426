import type { TopicCatalog } from '../../topics/catalog.js';
import { LogbookError } from '../../topics/errors.js';
import type { Log, LogRecord } from '../../topics/log/log.js';
import { CompactedTopicTail } from '../../topics/log/compacted-topic-tail.js';
import { InvalidArgumentError } from '../../topics/validation/index.js';
import { parseIngressMappings, type IngressMapping } from './ingress-mapping.js';

/** A mapping kept in the registry: the definition as it was given, checked, and when it was written. */
export interface StoredIngressMapping {
  /** The JSON object the API was given (an Avro writer schema inline as `avroSchema`). */
  readonly definition: Readonly<Record<string, unknown>>;
  readonly mapping: IngressMapping;
  readonly updatedTime: number;
}

/** No mapping of that name in the registry (404). */
export class IngressMappingNotFoundError extends LogbookError {
  constructor(name: string) {
    super('IngressMappingNotFound', `no ingress mapping '${name}' was created through the API`);
  }
}

/**
 * Checks one mapping given through the API or CLI: the same rules as a mapping of an ingress file,
 * except that an Avro writer schema comes inline (`avroSchema`): no server path is read.
 * @throws InvalidArgumentError naming the option that breaks its rule
 */
export function parseApiMapping(definition: unknown): IngressMapping {
  return parseIngressMappings({ mappings: [definition] }, () => {
    throw new InvalidArgumentError("a mapping given through the API carries its writer schema inline as 'avroSchema' (the CLI inlines an 'avroSchemaFile')");
  })[0]!;
}

/**
 * The ingress mappings created through the API and CLI: the compacted topic
 * `<prefix>.ingress-mappings` (key: the mapping's name; value: JSON `{definition, updatedTime}`;
 * a tombstone deletes), read from its start and tailed by every engine node, so each node runs the
 * same mappings within a poll interval. Records a node cannot read are skipped, keeping the last
 * good definition of that name.
 */
export class IngressRegistry {
  private readonly byName = new Map<string, StoredIngressMapping>();
  private readonly listeners = new Set<() => void>();
  private readonly tail: CompactedTopicTail;

  private constructor(
    log: Log,
    topic: string,
    private readonly clock: () => number,
  ) {
    this.tail = new CompactedTopicTail(log, topic, (records) => this.apply(records));
  }

  /** Creates the topic if needed, reads it to its end and keeps tailing it. */
  static async open(log: Log, catalog: TopicCatalog, options: { pollMs?: number; clock?: () => number } = {}): Promise<IngressRegistry> {
    await log.admin.createTopics([catalog.ingressMappingsSpec]);
    const registry = new IngressRegistry(log, catalog.ingressMappings, options.clock ?? Date.now);
    await registry.catchUp();
    registry.tail.follow(options.pollMs ?? 1_000);
    return registry;
  }

  /** Every mapping, by name. */
  list(): StoredIngressMapping[] {
    return [...this.byName.values()].sort((a, b) => a.mapping.name.localeCompare(b.mapping.name));
  }

  /** The mapping of that name, or undefined. */
  get(name: string): StoredIngressMapping | undefined {
    return this.byName.get(name);
  }

  /** Calls `listener` after every change read from the topic; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Creates or replaces a mapping; resolves once this node has read its own write.
   * @throws InvalidArgumentError for a definition that breaks a rule
   */
  async put(definition: Record<string, unknown>): Promise<{ stored: StoredIngressMapping; created: boolean }> {
    const mapping = parseApiMapping(definition);
    await this.catchUp();
    const created = !this.byName.has(mapping.name);
    await this.write(mapping.name, Buffer.from(JSON.stringify({ definition, updatedTime: this.clock() })));
    return { stored: this.byName.get(mapping.name) ?? { definition, mapping, updatedTime: this.clock() }, created };
  }

  /** @throws IngressMappingNotFoundError */
  async delete(name: string): Promise<void> {
    await this.catchUp();
    if (!this.byName.has(name)) throw new IngressMappingNotFoundError(name);
    await this.write(name, null);
  }

  /** Reads what was written since the last read (one read at a time). */
  catchUp(): Promise<void> {
    return this.tail.catchUp();
  }

  /** Stops tailing the topic and closes the producer. */
  async close(): Promise<void> {
    await this.tail.close();
  }

  private write(name: string, value: Buffer | null): Promise<void> {
    return this.tail.write(name, value);
  }

  private apply(records: readonly LogRecord[]): void {
    let changed = false;
    for (const record of records) {
      const name = record.key?.toString('utf8');
      if (!name) continue;
      if (record.value === null) {
        changed = this.byName.delete(name) || changed;
        continue;
      }
      try {
        const { definition, updatedTime } = JSON.parse(record.value.toString('utf8')) as { definition: Record<string, unknown>; updatedTime: number };
        const mapping = parseApiMapping(definition);
        if (mapping.name !== name) continue;
        this.byName.set(name, { definition, mapping, updatedTime: Number(updatedTime) });
        changed = true;
      } catch {
        // Written by a newer engine, or by hand: keep the last definition this node could read.
        continue;
      }
    }
    if (changed) for (const listener of this.listeners) listener();
  }
}
