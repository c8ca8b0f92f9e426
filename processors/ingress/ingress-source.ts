import { consumerLag } from '../../topics/log/consumer-lag.js';
import type { GroupConsumer, Log } from '../../topics/log/log.js';
import type { IngressMapping } from './ingress-mapping.js';
import { PartitionPump, type IngressBatch } from './partition-pump.js';
import { RecordMapper, type MapperTarget } from './record-mapper.js';

/** What an ingress source reports to whoever watches it (metrics, logs). */
export interface IngressObserver {
  onBatch?(mapping: IngressMapping, batch: IngressBatch): void;
  onError?(mapping: IngressMapping, partition: number, error: unknown): void;
}

/** Settings of one mapping's source. */
export interface IngressSourceSettings {
  readonly log: Log;
  readonly mapping: IngressMapping;
  /** The mapping's consumer group (its committed positions are the ingress's progress). */
  readonly groupId: string;
  /** Transactional ids are `<transactionalIdPrefix>-<partition>`. */
  readonly transactionalIdPrefix: string;
  readonly target: MapperTarget;
  readonly endpoint: string;
  readonly maxRecordsPerBatch?: number;
  readonly sessionTimeoutMs?: number;
  readonly observer?: IngressObserver;
}

/**
 * One mapping at work on this node: a member of the mapping's consumer group, and a
 * {@link PartitionPump} for each source partition the group gives it. Every node that loads the
 * mapping joins the group, so the source partitions spread over the nodes and move when one dies.
 */
export class IngressSource {
  private readonly pumps = new Map<number, PartitionPump>();
  private readonly stopping = new Set<Promise<void>>();
  private readonly consumer: GroupConsumer;
  private readonly mapper: RecordMapper;
  private rejoining: Promise<void> | undefined;
  private stopped = false;

  private constructor(private readonly settings: IngressSourceSettings) {
    this.mapper = new RecordMapper(settings.mapping, settings.target);
    this.consumer = settings.log.groupConsumer({
      groupId: settings.groupId,
      topics: [settings.mapping.sourceTopic],
      endpoint: settings.endpoint,
      ...(settings.sessionTimeoutMs ? { sessionTimeoutMs: settings.sessionTimeoutMs } : {}),
    });
  }

  /** Joins the mapping's group; pumps start as partitions are assigned. */
  static async start(settings: IngressSourceSettings): Promise<IngressSource> {
    const source = new IngressSource(settings);
    const started = source.consumer.start({
      onRevoked: (partitions) => partitions.forEach((p) => source.stopPump(p)),
      onAssigned: (partitions) => partitions.forEach((p) => source.startPump(p)),
      onStopped: () => [...source.pumps.keys()].forEach((p) => source.stopPump(p)),
    });
    await started.catch(async (error: unknown) => {
      await source.consumer.stop().catch(() => undefined);
      throw error;
    });
    return source;
  }

  /** The mapping this source serves. */
  get mapping(): IngressMapping {
    return this.settings.mapping;
  }

  /**
   * Records of the source partitions this node pumps that are not yet committed past, per
   * partition (transaction markers of a transactional source are not counted).
   */
  async lag(): Promise<Map<number, number>> {
    const lags = new Map<number, number>();
    for (const [partition, pump] of this.pumps) {
      const position = pump.committedPosition();
      if (position === undefined) continue;
      lags.set(partition, (await consumerLag(this.settings.log, this.settings.mapping.sourceTopic, partition, position)).records);
    }
    return lags;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const partition of [...this.pumps.keys()]) this.stopPump(partition);
    await Promise.all([...this.stopping]);
    await this.consumer.stop();
  }

  private startPump(partition: number): void {
    if (this.pumps.has(partition)) return;
    const s = this.settings;
    this.pumps.set(partition, new PartitionPump(partition, {
      log: s.log,
      consumer: this.consumer,
      mapper: this.mapper,
      groupId: s.groupId,
      sourceTopic: s.mapping.sourceTopic,
      transactionalId: `${s.transactionalIdPrefix}-${partition}`,
      maxRecordsPerBatch: s.maxRecordsPerBatch ?? 500,
      onBatch: (batch) => s.observer?.onBatch?.(s.mapping, batch),
      onError: (p, error) => s.observer?.onError?.(s.mapping, p, error),
      // Another member fenced a partition this member still holds: ownership is in doubt, so
      // give every partition back and let the coordinator hand them out again.
      onFenced: () => this.rejoinOnce(partition),
    }));
  }

  /** One rejoin at a time, however many pumps were fenced at once; a failed one is tried again. */
  private rejoinOnce(partition: number): void {
    if (this.rejoining) return;
    this.rejoining = (async () => {
      for (let pause = 1_000; ; pause = Math.min(pause * 2, 30_000)) {
        try {
          return await this.consumer.rejoin();
        } catch (error) {
          if (this.stopped) return;
          this.settings.observer?.onError?.(this.settings.mapping, partition, error);
          await new Promise((r) => setTimeout(r, pause));
        }
      }
    })().finally(() => (this.rejoining = undefined));
  }

  private stopPump(partition: number): void {
    const pump = this.pumps.get(partition);
    if (!pump) return;
    this.pumps.delete(partition);
    const stopped = pump.stop();
    this.stopping.add(stopped);
    void stopped.finally(() => this.stopping.delete(stopped));
  }
}
