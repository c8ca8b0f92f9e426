import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import { confluentSchemaRegistryClient, RegistrySerde, type SchemaRegistryClient, type Serde } from '../../topics/serde/index.js';
import { InvalidArgumentError } from '../../topics/validation/index.js';
import type { IngressMapping } from './ingress-mapping.js';
import { IngressSource, type IngressObserver } from './ingress-source.js';

/** What an {@link Ingress} needs from the node it runs on. */
export interface IngressContext {
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly dataConverter: DataConverter;
  /** Advertised in the mappings' groups (which node pumps which source partition). */
  readonly endpoint: string;
  readonly observer?: IngressObserver;
  readonly sessionTimeoutMs?: number;
}

/** How long a mapping that could not start waits before it is tried again. */
const START_RETRY_MS = 5_000;

interface Running {
  readonly mapping: IngressMapping;
  /** The mapping as JSON: a changed definition restarts its source. */
  readonly definition: string;
  readonly source: IngressSource;
}

/**
 * The ingress mappings this node runs, each consuming its business topic in its own group and
 * writing commands exactly once (see {@link IngressSource}). The set can change while the node
 * runs ({@link apply}): mappings created or deleted through the API start and stop here.
 */
export class Ingress {
  private readonly running = new Map<string, Running>();
  private applying: Promise<void> = Promise.resolve();
  private stopped = false;
  /** The mappings last applied, tried again while some could not start. */
  private wanted: readonly IngressMapping[] = [];
  private readonly failures = new Map<string, string>();
  private retry: NodeJS.Timeout | undefined;

  private constructor(private readonly context: IngressContext) {}

  /**
   * Creates the dead-letter topics and joins each mapping's group.
   * @throws InvalidArgumentError when a source topic does not exist (it is the business's topic:
   *   the ingress never creates it) or a dead-letter topic is one of the engine's
   */
  static async start(context: IngressContext, mappings: readonly IngressMapping[]): Promise<Ingress> {
    const ingress = new Ingress(context);
    await checkMappings(context, mappings);
    try {
      for (const mapping of mappings) await ingress.startSource(mapping);
    } catch (error) {
      await ingress.stop().catch(() => undefined);
      throw error;
    }
    return ingress;
  }

  /** The sources running now. */
  get sources(): IngressSource[] {
    return [...this.running.values()].map((r) => r.source);
  }

  /** Why a mapping this node should run could not start, the last time it was tried. */
  lastError(name: string): string | undefined {
    return this.failures.get(name);
  }

  /**
   * Runs exactly `mappings`: stops the sources of mappings no longer given or whose definition
   * changed, starts the new ones. A mapping that cannot start (its source topic is missing, say)
   * is reported to the observer's `onError` (partition -1) and in {@link lastError}, and tried
   * again every START_RETRY_MS.
   * Calls are applied one after the other.
   */
  apply(mappings: readonly IngressMapping[]): Promise<void> {
    const next = this.applying.then(() => this.applyNow(mappings));
    this.applying = next.catch(() => undefined);
    return next;
  }

  /** Stops every mapping: batches under way commit or abort, then the groups are left. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.applying;
    const running = [...this.running.values()];
    this.running.clear();
    await Promise.all(running.map((r) => r.source.stop()));
  }

  private async applyNow(mappings: readonly IngressMapping[]): Promise<void> {
    if (this.stopped) return;
    this.wanted = mappings;
    clearTimeout(this.retry);
    const wanted = new Map(mappings.map((m) => [m.name, m]));
    for (const name of [...this.failures.keys()]) if (!wanted.has(name)) this.failures.delete(name);
    for (const [name, running] of [...this.running]) {
      const mapping = wanted.get(name);
      if (mapping && JSON.stringify(mapping) === running.definition) continue;
      this.running.delete(name);
      await running.source.stop().catch((error: unknown) => this.context.observer?.onError?.(running.mapping, -1, error));
    }
    for (const mapping of mappings) {
      // Stopping meanwhile: no new group is joined.
      if (this.stopped) return;
      if (this.running.has(mapping.name)) continue;
      try {
        await checkMappings(this.context, [mapping]);
        await this.startSource(mapping);
        this.failures.delete(mapping.name);
      } catch (error) {
        this.failures.set(mapping.name, error instanceof Error ? error.message : String(error));
        this.context.observer?.onError?.(mapping, -1, error);
      }
    }
    // A source topic created later, a broker back: what could not start is tried again.
    if (this.failures.size > 0 && !this.stopped) {
      this.retry = setTimeout(() => void this.apply(this.wanted), START_RETRY_MS);
      this.retry.unref();
    }
  }

  private async startSource(mapping: IngressMapping): Promise<void> {
    if (this.stopped) return;
    const { log, catalog } = this.context;
    const names = catalog.ingressNames(mapping.name);
    const source = await IngressSource.start({
      log,
      mapping,
      groupId: names.groupId,
      transactionalIdPrefix: names.transactionalIdPrefix,
      endpoint: this.context.endpoint,
      target: {
        commandTopic: catalog.commands, deadLetterTopic: deadLetterOf(catalog, mapping), maxRecordBytes: log.maxRecordBytes, serde: this.context.serde, dataConverter: this.context.dataConverter,
        ...optionalRegistry(mapping, this.context.serde),
      },
      ...(this.context.observer ? { observer: this.context.observer } : {}),
      ...(this.context.sessionTimeoutMs ? { sessionTimeoutMs: this.context.sessionTimeoutMs } : {}),
    });
    // Stopped while it joined: leave again rather than pump on a stopping node.
    if (this.stopped) return void (await source.stop().catch(() => undefined));
    this.running.set(mapping.name, { mapping, definition: JSON.stringify(mapping), source });
  }
}

/** The registry an `avro-registry` mapping reads writer schemas from: its own, else the node's. */
function optionalRegistry(mapping: IngressMapping, serde: Serde): { sourceRegistry?: SchemaRegistryClient } {
  if (mapping.format !== 'avro-registry') return {};
  if (mapping.schemaRegistry) return { sourceRegistry: confluentSchemaRegistryClient({ url: mapping.schemaRegistry }) };
  return serde instanceof RegistrySerde ? { sourceRegistry: serde.client } : {};
}

function deadLetterOf(catalog: TopicCatalog, mapping: IngressMapping): string {
  return mapping.deadLetterTopic ?? catalog.ingressNames(mapping.name).deadLetter;
}

/**
 * The checks that need the cluster: each source topic exists, no dead-letter topic is one of the
 * engine's, an `avro-registry` source has a registry; then creates the dead-letter topics.
 * @throws InvalidArgumentError naming the mapping
 */
export async function checkMappings(context: Pick<IngressContext, 'log' | 'catalog' | 'serde'>, mappings: readonly IngressMapping[]): Promise<void> {
  const { log, catalog } = context;
  // The engine's own topics and Kafka's internal ones are never an ingress source: a mapping over
  // the command topic would feed the engine its own output.
  const internalSource = mappings.find((m) => m.sourceTopic.startsWith(`${catalog.prefix}.`) || m.sourceTopic.startsWith('__'));
  if (internalSource) throw new InvalidArgumentError(`ingress mapping '${internalSource.name}': sourceTopic '${internalSource.sourceTopic}' is one of the engine's ('${catalog.prefix}.*') or Kafka's internal ('__*') topics; an ingress reads business topics`);
  const internalDeadLetter = mappings.find((m) => m.deadLetterTopic?.startsWith('__'));
  if (internalDeadLetter) throw new InvalidArgumentError(`ingress mapping '${internalDeadLetter.name}': deadLetterTopic '${internalDeadLetter.deadLetterTopic}' is one of Kafka's internal topics ('__*')`);
  const unregistered = mappings.find((m) => m.format === 'avro-registry' && !optionalRegistry(m, context.serde).sourceRegistry);
  if (unregistered) throw new InvalidArgumentError(`ingress mapping '${unregistered.name}': format 'avro-registry' needs a schema registry: set the mapping's schemaRegistry URL, or run the node with --schema-registry`);
  const existing = await log.admin.describeTopics(mappings.map((m) => m.sourceTopic));
  const missing = mappings.find((m) => !existing.has(m.sourceTopic));
  if (missing) throw new InvalidArgumentError(`ingress mapping '${missing.name}': source topic '${missing.sourceTopic}' does not exist (the ingress reads it, it does not create it)`);
  // Raw business bytes must never land in a topic the engine reads.
  const engineTopic = mappings.find((m) => m.deadLetterTopic !== null && m.deadLetterTopic.startsWith(`${catalog.prefix}.`) && !m.deadLetterTopic.startsWith(`${catalog.prefix}.ingress.`));
  if (engineTopic) throw new InvalidArgumentError(`ingress mapping '${engineTopic.name}': deadLetterTopic '${engineTopic.deadLetterTopic}' is one of the engine's topics ('${catalog.prefix}.*'); use another name, or leave it out for '${catalog.ingressNames(engineTopic.name).deadLetter}'`);
  await log.admin.createTopics(mappings.map((m) => catalog.ingressDeadLetterSpec(deadLetterOf(catalog, m))));
}
