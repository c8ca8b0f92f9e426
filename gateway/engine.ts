import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { topicCatalog, workflowKey, type TopicCatalog } from '../topics/catalog.js';
import { LogbookError } from '../topics/errors.js';
import type { Log } from '../topics/log/log.js';
import { openLog, type LogLocation } from '../topics/log/open-log.js';
import { defaultDataConverter, type DataConverter } from '../topics/payload/index.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import { SingleObjectSerde, historyEventCodec, visibilityRowCodec, type Serde } from '../topics/serde/index.js';
import { resolveReplication } from '../topics/replication.js';
import { ensureTopics } from '../topics/topic-setup.js';
import { defaultHistoryConfig, type HistoryConfig } from '../processors/history/index.js';
import { historyConfigWith } from '../processors/namespaces/namespace-model.js';
import { NamespaceRegistry } from '../processors/namespaces/namespace-registry.js';
import { HistoryNode } from '../processors/history-node.js';
import { ReplyListener } from '../processors/reply-listener.js';
import type { BatchResult } from '../processors/shard-batch.js';
import { eventStoreKey, Keyspace } from '../processors/store-layout.js';
import { CommandClient } from '../sdk/client/command-client.js';
import { gatewayRunLocator, queryTargetOf, queryTargetOfHistory, type QueryTarget } from '../sdk/client/query-target.js';
import type { WorkerConnection } from '../sdk/worker/worker-connection.js';

/** How to run an engine node. */
export interface EngineOptions {
  readonly log: LogLocation;
  /** Shard count; fixed when the topics are created. Default 8. */
  readonly shards?: number;
  readonly prefix?: string;
  /**
   * Replication of the topics the engine creates; absent values follow the cluster's size (3 and 2
   * from three brokers, one copy per broker below that): see `replicationFor` in topics/replication.ts.
   * Existing topics keep the replication they were created with.
   */
  readonly replicationFactor?: number;
  readonly minInsyncReplicas?: number;
  /** Local state (shard stores). */
  readonly dataDirectory: string;
  /** This node's gateway URL, advertised so other nodes can forward reads for shards it owns. */
  readonly endpoint: string;
  readonly serde?: Serde;
  readonly dataConverter?: DataConverter;
  readonly clock?: () => number;
  readonly onBatch?: (shard: number, result: BatchResult) => void;
  /** Wraps the opened log (fault injection in tests). */
  readonly wrapLog?: (log: Log) => Log;
  /** Overrides the history consumer group (split-brain tests only). */
  readonly historyGroupId?: string;
  readonly onShardEvent?: ConstructorParameters<typeof HistoryNode>[0]['onShardEvent'];
  /** History state-machine settings (limits per namespace and their defaults); default `defaultHistoryConfig`. */
  readonly history?: HistoryConfig;
  /** The namespace registry; see README "Namespaces". */
  readonly namespaces?: NamespaceOptions;
  /** Receives start-up progress lines (for example while a fresh cluster's topics get their leaders). */
  readonly onProgress?: (line: string) => void;
}

/** How an engine node treats namespaces. */
export interface NamespaceOptions {
  /**
   * When true, the gateway answers 404 `NamespaceNotFound` for calls in a namespace that is not
   * registered (Temporal's behaviour). Default false: an unregistered namespace works with the
   * engine's defaults, as before namespaces could be registered.
   */
  readonly requireRegistration?: boolean;
  /** How often the registry topic is read for changes made on other nodes; default 500 ms. */
  readonly pollMs?: number;
}

/** The shard does not live here (or is restoring): the caller should retry or ask the owner. */
export class ShardUnavailableError extends LogbookError {
  constructor(
    readonly shard: number,
    readonly ownerEndpoint: string | undefined,
  ) {
    super('SHARD_UNAVAILABLE', `shard ${shard} is not served by this node${ownerEndpoint ? ` (owner: ${ownerEndpoint})` : ' and has no owner right now'}`, { retriable: true });
  }
}

/**
 * One engine node: the log, the topic catalog, the history processors of the shards this node
 * owns, a reply listener and a command client. The gateway serves HTTP on top of it; in-process
 * workers connect through `workerConnection()`.
 */
export class Engine {
  readonly client: CommandClient;

  private constructor(
    readonly log: Log,
    readonly catalog: TopicCatalog,
    readonly serde: Serde,
    readonly dataConverter: DataConverter,
    readonly node: HistoryNode,
    readonly replies: ReplyListener,
    /** The namespaces every node and worker reads (limits, retention, rates). */
    readonly namespaces: NamespaceRegistry,
    /** Whether calls in unregistered namespaces are refused (see {@link NamespaceOptions}). */
    readonly requireRegisteredNamespaces: boolean,
  ) {
    this.client = new CommandClient(log, catalog, serde, replies, dataConverter, { locateRun: (ns, id, runId) => this.locateRun(ns, id, runId) });
  }

  /** Opens the log, creates or verifies the topics, joins the history group and the replies topic. */
  static async start(options: EngineOptions): Promise<Engine> {
    const serde = options.serde ?? new SingleObjectSerde();
    const dataConverter = options.dataConverter ?? defaultDataConverter;
    await mkdir(options.dataDirectory, { recursive: true });
    const opened = await openLog(options.log);
    const log = options.wrapLog ? options.wrapLog(opened) : opened;
    let namespaces: NamespaceRegistry | undefined;
    try {
      const replication = await resolveReplication(log.admin, { replicationFactor: options.replicationFactor, minInsyncReplicas: options.minInsyncReplicas });
      const catalog = topicCatalog({ shards: options.shards ?? 8, ...(options.prefix ? { prefix: options.prefix } : {}), replicationFactor: replication.replicationFactor, minInsyncReplicas: replication.minInsyncReplicas });
      await ensureTopics(log.admin, catalog, options.onProgress ? { onProgress: options.onProgress } : {});
      namespaces = await NamespaceRegistry.open(log, catalog, serde, options.namespaces?.pollMs ? { pollMs: options.namespaces.pollMs } : {});
      // The history settings with the registry's limits and retentions, rebuilt when it changes.
      const baseHistory = options.history ?? defaultHistoryConfig;
      const registry = namespaces;
      let history = historyConfigWith(baseHistory, registry.list());
      registry.onChange(() => (history = historyConfigWith(baseHistory, registry.list())));
      const node = new HistoryNode({
        log,
        catalog,
        serde,
        clock: options.clock ?? Date.now,
        dataDirectory: join(options.dataDirectory, 'shards'),
        endpoint: options.endpoint,
        ...(options.historyGroupId ? { groupId: options.historyGroupId } : {}),
        ...(options.onBatch ? { onBatch: options.onBatch } : {}),
        ...(options.onShardEvent ? { onShardEvent: options.onShardEvent } : {}),
        history: () => history,
      });
      const replies = new ReplyListener(log, catalog, serde);
      await replies.start();
      await node.start();
      return new Engine(log, catalog, serde, dataConverter, node, replies, namespaces, options.namespaces?.requireRegistration ?? false);
    } catch (error) {
      await namespaces?.close();
      await log.close();
      throw error;
    }
  }

  /** What in-process workers need. */
  workerConnection(): WorkerConnection {
    return { log: this.log, catalog: this.catalog, serde: this.serde, dataConverter: this.dataConverter };
  }

  /** The committed mutable state of a workflow, read from the local shard store. */
  async describe(namespace: string, workflowId: string): Promise<MutableStateSnapshot | null> {
    return (await this.localShard(namespace, workflowId)).describe(workflowKey(namespace, workflowId));
  }

  /**
   * The visibility row of one run (any run of the workflow, closed ones too), read from the local
   * shard store after the batch in flight; undefined if the run is unknown.
   */
  async visibilityRow(namespace: string, workflowId: string, runId: string): Promise<VisibilityRow | undefined> {
    const processor = await this.localShard(namespace, workflowId);
    const key = workflowKey(namespace, workflowId);
    await processor.describe(key);
    const raw = await processor.localStore?.get(Keyspace.visibility, `${key}/${runId}`);
    return raw ? this.serde.decode(visibilityRowCodec, raw) : undefined;
  }

  /**
   * Events `fromEventId..untilEventId` of a run from the owner's history index, waiting (up to
   * `waitMs`) for events committed but not yet indexed. Default: up to the run's last event.
   */
  async history(namespace: string, workflowId: string, runId: string, options: { fromEventId?: number; untilEventId?: number; waitMs?: number } = {}): Promise<HistoryEvent[]> {
    const processor = await this.localShard(namespace, workflowId);
    const key = workflowKey(namespace, workflowId);
    const state = await processor.describe(key);
    const last = options.untilEventId ?? (state?.executionInfo.runId === runId ? state.executionInfo.lastEventId : Number.MAX_SAFE_INTEGER);
    const events: HistoryEvent[] = [];
    const deadline = Date.now() + (options.waitMs ?? 5_000);
    for (let id = options.fromEventId ?? 1; id <= last; id++) {
      const store = processor.localStore;
      const raw = store ? await store.get(Keyspace.history, eventStoreKey(key, runId, id)) : undefined;
      if (raw) {
        events.push(await this.serde.decode(historyEventCodec, raw));
        continue;
      }
      if (last === Number.MAX_SAFE_INTEGER) break;
      if (Date.now() > deadline) throw new LogbookError('HISTORY_NOT_INDEXED', `event ${id} of ${key}/${runId} is not indexed yet`, { retriable: true });
      await new Promise((r) => setTimeout(r, 10));
      id--;
    }
    return events;
  }

  /**
   * Where a query goes and what its answer must reflect, read from the run's state on this node,
   * or through the owner's gateway when another node owns the shard.
   * @throws LogbookError `WorkflowNotFound` / `RunNotFound`; `ShardUnavailableError` while the shard has no owner
   */
  async locateRun(namespace: string, workflowId: string, runId?: string): Promise<QueryTarget> {
    let state: MutableStateSnapshot | null;
    try {
      state = await this.describe(namespace, workflowId);
    } catch (error) {
      if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint) throw error;
      return gatewayRunLocator(error.ownerEndpoint)(namespace, workflowId, runId);
    }
    if (!state) throw new LogbookError('WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
    if (runId === undefined || runId === state.executionInfo.runId) return queryTargetOf(state);
    return queryTargetOfHistory(workflowId, runId, await this.history(namespace, workflowId, runId));
  }

  /**
   * The visibility rows of every run (open and closed) on the shards this node owns, read from
   * the local stores as last committed: a scan, for operators' listings, not for hot paths.
   */
  async *localVisibilityRows(): AsyncIterable<VisibilityRow> {
    for (const shard of this.node.ownedShards()) {
      const store = this.node.processor(shard)?.localStore;
      if (!store) continue;
      for await (const [, raw] of store.entries(Keyspace.visibility)) yield await this.serde.decode(visibilityRowCodec, raw);
    }
  }

  /** The endpoint of the node that owns a workflow's shard, if known. */
  async ownerOf(namespace: string, workflowId: string): Promise<string | undefined> {
    const shard = this.catalog.shardOf(namespace, workflowId);
    return (await this.node.members()).find((m) => m.partitions.includes(shard))?.endpoint;
  }

  /**
   * Leaves the history group at once — KafkaJS's disconnect sends LeaveGroup, so the other nodes
   * take this node's shards over without waiting for its session to time out — and stops its
   * shard processors. Call it first on a graceful stop, before slow work such as draining workers;
   * the log stays open for them and for the replies. `stop()` does it too.
   */
  async handOverShards(): Promise<void> {
    await this.node.stop();
  }

  async stop(): Promise<void> {
    await this.handOverShards();
    await this.replies.stop();
    await this.namespaces.close();
    await this.log.close();
  }

  private async localShard(namespace: string, workflowId: string) {
    const shard = this.catalog.shardOf(namespace, workflowId);
    const processor = this.node.processor(shard);
    if (!processor?.localStore) throw new ShardUnavailableError(shard, await this.ownerOf(namespace, workflowId));
    return processor;
  }
}
