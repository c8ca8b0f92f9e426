import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { topicCatalog, workflowKey, type TopicCatalog } from '../topics/catalog.js';
import { LogbookError } from '../topics/errors.js';
import type { Log } from '../topics/log/log.js';
import { checkLogLocation, openLog, type LogLocation } from '../topics/log/open-log.js';
import { defaultClientId } from '../topics/log/client-id.js';
import type { DataConverter } from '../topics/payload/index.js';
import { gatewayDataConverter } from './gateway-data-converter.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import { RegistrySerde, SingleObjectSerde, historyEventCodec, visibilityRowCodec, type Serde } from '../topics/serde/index.js';
import { registerEngineSchemas } from '../topics/serde/engine-schemas.js';
import { resolveReplication } from '../topics/replication.js';
import { ensureTopics } from '../topics/topic-setup.js';
import { TaskTopics, type TaskQueueLimits } from '../topics/task-topics.js';
import type { RestoreProgress } from '../state-stores/shard-store.js';
import { defaultHistoryConfig, type HistoryConfig } from '../processors/history/index.js';
import { historyConfigWith } from '../processors/namespaces/namespace-model.js';
import { NamespaceRegistry } from '../processors/namespaces/namespace-registry.js';
import { ShardManager } from '../processors/shard-runtime/shard-manager.js';
import type { ShardTransition } from '../processors/shard-runtime/shard-lifecycle.js';
import { ShardHealth } from '../processors/shard-runtime/shard-health.js';
import { ShardState } from '../processors/shard-runtime/shard-lifecycle.js';
import { claimStores } from '../processors/shard-runtime/store-identity.js';
import { ReplyListener } from '../topics/replies/reply-listener.js';
import type { BatchResult } from '../processors/shard-runtime/batch-commit.js';
import { eventStoreKey, Keyspace } from '../processors/shard-runtime/store-layout.js';
import { isStoreClosedError } from '../state-stores/kv-store.js';
import { assertValid } from '../topics/validation/index.js';
import { CommandClient } from '../sdk/client/command-client.js';
import { gatewayRunLocator, queryTargetOf, queryTargetOfHistory, type QueryTarget } from '../sdk/client/query-target.js';
import type { WorkerConnection } from '../sdk/worker/worker-connection.js';
import { startIngress } from './ingress-startup.js';
import type { Ingress } from '../processors/ingress/ingress.js';
import type { IngressRegistry } from '../processors/ingress/ingress-registry.js';
import type { IngressMapping } from '../processors/ingress/ingress-mapping.js';
import type { IngressObserver } from '../processors/ingress/ingress-source.js';
import { PeerCalls } from './auth/peer-calls.js';

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
  /** Restore progress of each shard this node opens (long restores print it). */
  readonly onRestoreProgress?: (shard: number, progress: RestoreProgress) => void;
  /** Wraps the opened log (fault injection in tests). */
  readonly wrapLog?: (log: Log) => Log;
  /** Overrides the history consumer group (split-brain tests only). */
  readonly historyGroupId?: string;
  /** Every lifecycle move of a shard on this node (CREATED → RESTORING → RUNNING, CORRUPTED, MIGRATED, …). */
  readonly onShardTransition?: (transition: ShardTransition) => void;
  /** The history group's session timeout: how long a node that died without leaving holds its shards. */
  readonly sessionTimeoutMs?: number;
  /** How many task queues may be created (default 100 per namespace, 1,000 in all); each is four topics. */
  readonly taskQueueLimits?: Partial<TaskQueueLimits>;
  /** History state-machine settings (limits per namespace and their defaults); default `defaultHistoryConfig`. */
  readonly history?: HistoryConfig;
  /** The namespace registry; see README "Namespaces". */
  readonly namespaces?: NamespaceOptions;
  /** Receives start-up progress lines (for example while a fresh cluster's topics get their leaders). */
  readonly onProgress?: (line: string) => void;
  /** Business topics this node turns into commands (README "Ingress from business topics"). */
  readonly ingress?: readonly IngressMapping[];
  /** Receives each committed ingress batch and each ingress failure (metrics, logs). */
  readonly ingressObserver?: IngressObserver;
  /**
   * The key every node of the deployment shares (`--task-token-key`): it signs the HTTP task
   * endpoints' tokens and the credentials of calls between nodes. Default: a random key, which
   * serves a single node.
   */
  readonly deploymentKey?: Buffer;
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

/** How long a gateway waits for a shard owner's /healthz. */
const OWNER_HEALTH_TIMEOUT_MS = 2_000;

/** The shard does not live here (or is restoring): the caller should retry or ask the owner. */
export class ShardUnavailableError extends LogbookError {
  constructor(
    readonly shard: number,
    readonly ownerEndpoint: string | undefined,
    /** Why, when it is not that another node (or no node) owns the shard. */
    reason?: string,
  ) {
    super('SHARD_UNAVAILABLE', reason ? `shard ${shard} is not available: ${reason}` : `shard ${shard} is not served by this node${ownerEndpoint ? ` (owner: ${ownerEndpoint})` : ' and has no owner right now'}`, { retriable: true });
  }
}

/**
 * One engine node: the log, the topic catalog, the history processors of the shards this node
 * owns, a reply listener and a command client. The gateway serves HTTP on top of it; in-process
 * workers connect through `workerConnection()`.
 */
export class Engine {
  readonly client: CommandClient;
  /** Liveness and readiness from the shards' lifecycles (served on /healthz and /readyz). */
  readonly health: ShardHealth;

  private constructor(
    readonly log: Log,
    readonly catalog: TopicCatalog,
    readonly serde: Serde,
    readonly dataConverter: DataConverter,
    readonly node: ShardManager,
    readonly replies: ReplyListener,
    /** The namespaces every node and worker reads (limits, retention, rates). */
    readonly namespaces: NamespaceRegistry,
    /** Whether calls in unregistered namespaces are refused (see {@link NamespaceOptions}). */
    readonly requireRegisteredNamespaces: boolean,
    /** The ingress mappings this node pumps: those of its file and those created through the API. */
    readonly ingress: Ingress,
    /** The mappings created through the API and CLI, shared by every node. */
    readonly ingressRegistry: IngressRegistry,
    /** The mappings of this node's ingress file (`--ingress`), which the API cannot change. */
    readonly ingressFileMappings: readonly IngressMapping[],
    /** Signs this node's calls to the other nodes and checks theirs (see {@link EngineOptions.deploymentKey}). */
    readonly peers: PeerCalls,
  ) {
    this.health = new ShardHealth(node, catalog.shards);
    this.client = new CommandClient(log, catalog, serde, replies, dataConverter, { locateRun: (ns, id, runId) => this.locateRun(ns, id, runId) });
  }

  /** Opens the log, creates or verifies the topics, joins the history group and the replies topic. */
  static async start(options: EngineOptions): Promise<Engine> {
    const serde = options.serde ?? new SingleObjectSerde();
    const dataConverter = options.dataConverter ?? gatewayDataConverter;
    await mkdir(options.dataDirectory, { recursive: true });
    await checkLogLocation(options.log);
    const opened = await openLog(options.log.kind === 'kafka' ? { ...options.log, clientId: options.log.clientId ?? defaultClientId('engine') } : options.log);
    const log = options.wrapLog ? options.wrapLog(opened) : opened;
    let namespaces: NamespaceRegistry | undefined;
    try {
      const replication = await resolveReplication(log.admin, { replicationFactor: options.replicationFactor, minInsyncReplicas: options.minInsyncReplicas });
      const catalog = topicCatalog({ shards: options.shards ?? 8, ...(options.prefix ? { prefix: options.prefix } : {}), replicationFactor: replication.replicationFactor, minInsyncReplicas: replication.minInsyncReplicas });
      await ensureTopics(log.admin, catalog, options.onProgress ? { onProgress: options.onProgress } : {});
      // Registry mode: every fixed topic's schemas are registered now, so a registry that refuses one stops the node here.
      if (serde instanceof RegistrySerde) await registerEngineSchemas(serde, catalog, options.onProgress);
      namespaces = await NamespaceRegistry.open(log, catalog, serde, options.namespaces?.pollMs ? { pollMs: options.namespaces.pollMs } : {});
      // The history settings with the registry's limits and retentions, rebuilt when it changes.
      const baseHistory = options.history ?? defaultHistoryConfig;
      const registry = namespaces;
      let history = historyConfigWith(baseHistory, registry.list());
      registry.onChange(() => (history = historyConfigWith(baseHistory, registry.list())));
      const claimed = await claimStores(options.dataDirectory, { ...(await log.identity()), prefix: catalog.prefix }, join(options.dataDirectory, 'shards'));
      if (claimed === 'wiped') options.onProgress?.(`the shard stores in ${options.dataDirectory} were built from another log; they were wiped and are restored from this one's changelogs`);
      const node = new ShardManager({
        log,
        catalog,
        serde,
        clock: options.clock ?? Date.now,
        dataDirectory: join(options.dataDirectory, 'shards'),
        endpoint: options.endpoint,
        ...(options.historyGroupId ? { groupId: options.historyGroupId } : {}),
        ...(options.onBatch ? { onBatch: options.onBatch } : {}),
        ...(options.onRestoreProgress ? { onRestoreProgress: options.onRestoreProgress } : {}),
        ...(options.onShardTransition ? { onTransition: options.onShardTransition } : {}),
        ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
        taskTopics: new TaskTopics(log.admin, catalog, options.taskQueueLimits),
        history: () => history,
      });
      const replies = new ReplyListener(log, catalog, serde);
      await replies.start();
      await node.start();
      const fileMappings = options.ingress ?? [];
      const started = await startIngress(log, catalog, fileMappings, {
        log, catalog, serde, dataConverter, endpoint: options.endpoint,
        ...(options.ingressObserver ? { observer: options.ingressObserver } : {}),
        ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
      }).catch(async (error: unknown) => {
        await node.stop();
        await replies.stop();
        throw error;
      });
      return new Engine(log, catalog, serde, dataConverter, node, replies, namespaces, options.namespaces?.requireRegistration ?? false, started.ingress, started.registry, fileMappings, new PeerCalls(options.deploymentKey));
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
    return this.read(namespace, workflowId, (processor) => processor.describe(workflowKey(namespace, workflowId)));
  }

  /**
   * The visibility row of one run (any run of the workflow, closed ones too), read from the local
   * shard store after the batch in flight; undefined if the run is unknown.
   */
  async visibilityRow(namespace: string, workflowId: string, runId: string): Promise<VisibilityRow | undefined> {
    return this.read(namespace, workflowId, async (processor) => {
      const key = workflowKey(namespace, workflowId);
      await processor.describe(key);
      const raw = await processor.localStore?.get(Keyspace.visibility, `${key}/${runId}`);
      return raw ? this.serde.decode(visibilityRowCodec, raw) : undefined;
    });
  }

  /**
   * Events `fromEventId..untilEventId` of a run from the owner's history index, waiting (up to
   * `waitMs`) for events committed but not yet indexed. Default: up to the run's last event.
   * @throws InvalidArgumentError for an `untilEventId` that is not a positive integer or lies past
   *   the run's last event (known for the current run and for closed runs): no wait could end well
   */
  async history(namespace: string, workflowId: string, runId: string, options: { fromEventId?: number; untilEventId?: number; waitMs?: number } = {}): Promise<HistoryEvent[]> {
    return this.read(namespace, workflowId, async (processor) => {
      const key = workflowKey(namespace, workflowId);
      const state = await processor.describe(key);
      const current = state?.executionInfo.runId === runId ? state.executionInfo.lastEventId : undefined;
      const until = options.untilEventId;
      if (until !== undefined) assertValid(untilEventProblem(until, runId, current ?? (await this.closedRunEnd(namespace, workflowId, runId))));
      const last = until ?? current ?? Number.MAX_SAFE_INTEGER;
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
    });
  }

  /** The last event id of a closed run that is no longer current, from its visibility row; undefined if unknown. */
  private async closedRunEnd(namespace: string, workflowId: string, runId: string): Promise<number | undefined> {
    const row = await this.visibilityRow(namespace, workflowId, runId);
    return row && row.status !== 'Running' ? row.historyLength : undefined;
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
      // An owner that cannot be reached (a TypeError from fetch) leaves the shard unavailable.
      return gatewayRunLocator(this.peers.access(error.ownerEndpoint))(namespace, workflowId, runId).catch((failure: unknown) => {
        throw failure instanceof TypeError ? error : failure;
      });
    }
    if (!state) throw new LogbookError('WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
    if (runId === undefined || runId === state.executionInfo.runId) return queryTargetOf(state);
    return queryTargetOfHistory(workflowId, runId, await this.history(namespace, workflowId, runId));
  }

  /**
   * Whether a workflow's shard has been served without a break for the last `forMs`: RUNNING on
   * this node, or on its owner as the owner's /healthz says, since at least that long. False while
   * it moves, restores or has no owner, when it came back within that time, or when the owner
   * cannot be asked: what a gateway checks before calling an unanswered command a timeout.
   */
  async shardServed(namespace: string, workflowId: string, forMs = 0): Promise<boolean> {
    const shard = this.catalog.shardOf(namespace, workflowId);
    const servedSince = (report: { state: string; since: number } | undefined) => report?.state === ShardState.Running && report.since <= Date.now() - forMs;
    const local = this.node.processor(shard);
    if (local) return local.localStore !== undefined && servedSince(this.node.shardReports().find((r) => r.shard === shard));
    try {
      const owner = await this.ownerOf(namespace, workflowId);
      if (!owner) return false;
      const health = (await (await fetch(`${owner}/healthz`, { signal: AbortSignal.timeout(OWNER_HEALTH_TIMEOUT_MS) })).json()) as { states?: Array<{ shard: number; state: string; since: number }> };
      return servedSince(health.states?.find((s) => s.shard === shard));
    } catch {
      return false;
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
    // The ingress first: its source partitions move to the other nodes with the shards.
    await this.ingressRegistry.close();
    await this.ingress.stop();
    await this.node.stop();
  }

  async stop(): Promise<void> {
    await this.handOverShards();
    await this.replies.stop();
    await this.namespaces.close();
    await this.log.close();
  }

  /**
   * Runs a read of the workflow's shard on this node. A read that races the shard's store being
   * closed (the shard stopping, failing over or being restored) fails with the store's error, or a
   * TypeError once the store is gone: the shard is unavailable, and the caller may retry (503).
   * @throws ShardUnavailableError when this node does not serve the shard, or stopped serving it during the read
   */
  private async read<T>(namespace: string, workflowId: string, read: (processor: ShardReader) => Promise<T>): Promise<T> {
    const shard = this.catalog.shardOf(namespace, workflowId);
    const processor = this.node.processor(shard);
    if (!processor?.localStore) throw new ShardUnavailableError(shard, await this.ownerOf(namespace, workflowId));
    try {
      return await read(processor);
    } catch (error) {
      const stillServing = this.node.processor(shard) === processor && processor.localStore !== undefined;
      if (stillServing && !isStoreClosedError(error)) throw error;
      throw new ShardUnavailableError(shard, undefined, 'its store closed during the read (the shard is stopping, failing over or restoring); retry shortly');
    }
  }
}

/** The shard processor a read goes through. */
type ShardReader = NonNullable<ReturnType<ShardManager['processor']>>;

/** Why `untilEventId` cannot be served for a run whose last event is `runEnd` (undefined: not known yet), or null. */
function untilEventProblem(untilEventId: number, runId: string, runEnd: number | undefined): string | null {
  if (!Number.isSafeInteger(untilEventId) || untilEventId < 1) return `untilEventId must be a positive integer event id, got ${untilEventId}`;
  if (runEnd !== undefined && untilEventId > runEnd) return `untilEventId ${untilEventId} is past the end of run ${runId}: its last event is ${runEnd}`;
  return null;
}
