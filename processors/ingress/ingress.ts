import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { Serde } from '../../topics/serde/index.js';
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

/**
 * Every ingress mapping this node loaded, each consuming its business topic in its own group and
 * writing commands exactly once (see {@link IngressSource}).
 */
export class Ingress {
  private constructor(readonly sources: readonly IngressSource[]) {}

  /**
   * Creates the dead-letter topics and joins each mapping's group.
   * @throws InvalidArgumentError when a source topic does not exist (it is the business's topic:
   *   the ingress never creates it)
   */
  static async start(context: IngressContext, mappings: readonly IngressMapping[]): Promise<Ingress> {
    const { log, catalog } = context;
    const existing = await log.admin.describeTopics(mappings.map((m) => m.sourceTopic));
    const missing = mappings.find((m) => !existing.has(m.sourceTopic));
    if (missing) throw new InvalidArgumentError(`ingress mapping '${missing.name}': source topic '${missing.sourceTopic}' does not exist (the ingress reads it, it does not create it)`);
    const deadLetterOf = (m: IngressMapping) => m.deadLetterTopic ?? catalog.ingressNames(m.name).deadLetter;
    // Raw business bytes must never land in a topic the engine reads.
    const engineTopic = mappings.find((m) => m.deadLetterTopic !== null && m.deadLetterTopic.startsWith(`${catalog.prefix}.`) && !m.deadLetterTopic.startsWith(`${catalog.prefix}.ingress.`));
    if (engineTopic) throw new InvalidArgumentError(`ingress mapping '${engineTopic.name}': deadLetterTopic '${engineTopic.deadLetterTopic}' is one of the engine's topics ('${catalog.prefix}.*'); use another name, or leave it out for '${catalog.ingressNames(engineTopic.name).deadLetter}'`);
    await log.admin.createTopics(mappings.map((m) => catalog.ingressDeadLetterSpec(deadLetterOf(m))));
    const sources: IngressSource[] = [];
    try {
      for (const mapping of mappings) {
        const names = catalog.ingressNames(mapping.name);
        sources.push(await IngressSource.start({
          log,
          mapping,
          groupId: names.groupId,
          transactionalIdPrefix: names.transactionalIdPrefix,
          endpoint: context.endpoint,
          target: { commandTopic: catalog.commands, deadLetterTopic: deadLetterOf(mapping), maxRecordBytes: log.maxRecordBytes, serde: context.serde, dataConverter: context.dataConverter },
          ...(context.observer ? { observer: context.observer } : {}),
          ...(context.sessionTimeoutMs ? { sessionTimeoutMs: context.sessionTimeoutMs } : {}),
        }));
      }
    } catch (error) {
      await Promise.all(sources.map((s) => s.stop().catch(() => undefined)));
      throw error;
    }
    return new Ingress(sources);
  }

  /** Stops every mapping: batches under way commit or abort, then the groups are left. */
  async stop(): Promise<void> {
    await Promise.all(this.sources.map((s) => s.stop()));
  }
}
