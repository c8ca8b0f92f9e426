import { workflowWorkersGroupId } from '../../topics/catalog.js';
import { CLAIM_DEFER_MS, claimUnlessAnsweredWithin } from './deferred-claim.js';
import type { LogRecord } from '../../topics/log/log.js';
import type { TaskAttemptRef } from '../../topics/schemas/command/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { workflowTaskCodec } from '../../topics/serde/index.js';
import { ensureTaskTopics } from '../../topics/topic-setup.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import type { WorkflowTaskResult } from '../replay/workflow-run.js';
import type { ActivityFunction } from './activity-worker.js';
import { QueryAnswerer } from './query-answerer.js';
import { QueryWorker, type QueryWorkerOptions } from './query-worker.js';
import { TaskConsumer } from './task-consumer.js';
import { CommandWriter, type RunRef, type WorkerConnection } from './worker-connection.js';
import { isPermanentWriteError } from './write-retry.js';
import { answerSignals } from './answer-signals.js';
import { WorkflowTaskRunner } from './workflow-task-runner.js';
import type { WorkerPayloads } from './worker-payloads.js';
import { SDK_NAME, SDK_VERSION, taskFailedCause, unsendableCompletion } from './workflow-task-answers.js';

/** Reads a run's history, events 1..untilEventId, from the shard that owns it. */
export interface HistoryFetcher {
  fetch(run: RunRef, untilEventId: number): Promise<HistoryEvent[]>;
}

/** Options of a workflow worker. */
export interface WorkflowWorkerOptions {
  readonly namespace: string;
  readonly taskQueue: string;
  /** The module exporting the workflow functions (bundled at start), or a bundle built before. */
  readonly workflowsPath: string | { readonly bundle: WorkflowBundle };
  readonly identity: string;
  readonly history: HistoryFetcher;
  /** The activities the workflows may run as local activities (`proxyLocalActivities`), by type. */
  readonly localActivities?: Readonly<Record<string, ActivityFunction>>;
  /** Runs kept in memory; default {@link defaultCacheCapacity} (from the heap limit). */
  readonly maxCachedWorkflows?: number;
  /** Workflow tasks processed at once (across partitions); default 10. */
  readonly maxConcurrentWorkflowTasks?: number;
  readonly deadlockTimeoutMs?: number;
  /** Observability hooks (metrics). */
  readonly onTask?: (event: { cacheHit: boolean; replayMs: number; result: WorkflowTaskResult['type'] }) => void;
  readonly onLag?: (topic: string, partition: number, lag: number) => void;
  readonly onQuery?: QueryWorkerOptions['onQuery'];
  /** The payload codecs applied around workflow code (see {@link WorkerPayloads}); none by default. */
  readonly payloads?: WorkerPayloads;
}

/** The workflows of a worker: a module bundled at start, or a bundle built before. */
export function loadWorkflowBundle(workflows: string | { readonly bundle: WorkflowBundle }): Promise<WorkflowBundle> {
  return typeof workflows === 'string' ? bundleWorkflowCode({ workflowsPath: workflows }) : Promise.resolve(workflows.bundle);
}

/**
 * Runs workflow tasks of one task queue. Tasks are keyed by workflow, so the same worker keeps a
 * run cached and needs only the new events; on a miss (or a gap) it fetches the full history from
 * the shard owner and replays it. One partition's tasks run in order. Queries of the queue are
 * answered beside the tasks, never behind them (see {@link QueryWorker}).
 */
export class WorkflowWorker {
  private readonly commands: CommandWriter;
  private runner: WorkflowTaskRunner | undefined;
  private tasks: TaskConsumer | undefined;
  private queries: QueryWorker | undefined;

  constructor(
    private readonly connection: WorkerConnection,
    private readonly options: WorkflowWorkerOptions,
  ) {
    this.commands = new CommandWriter(connection);
  }

  async start(): Promise<void> {
    const { log, catalog } = this.connection;
    const { namespace, taskQueue, identity } = this.options;
    const bundle = await loadWorkflowBundle(this.options.workflowsPath);
    this.runner = new WorkflowTaskRunner({ ...this.options, bundle, dataConverter: this.connection.dataConverter });
    await ensureTaskTopics(log.admin, catalog, namespace, taskQueue);
    this.tasks = new TaskConsumer({
      log,
      topic: catalog.taskTopics(namespace, taskQueue).workflow,
      groupId: workflowWorkersGroupId(catalog, namespace, taskQueue),
      identity,
      maxConcurrent: this.options.maxConcurrentWorkflowTasks ?? 10,
      ordered: true,
      handle: (record, signal) => this.process(record, signal),
      ...(this.options.onLag ? { onLag: this.options.onLag } : {}),
    });
    await this.tasks.start();
    this.queries = new QueryWorker(this.connection, {
      namespace,
      taskQueue,
      identity,
      answerer: new QueryAnswerer({ ...this.options, bundle, cache: this.runner.cache, dataConverter: this.connection.dataConverter }),
      ...(this.options.onQuery ? { onQuery: this.options.onQuery } : {}),
    });
    await this.queries.start();
  }

  async stop(graceMs = 10_000): Promise<void> {
    await Promise.all([this.tasks?.stop(graceMs), this.queries?.stop(graceMs)]);
    this.runner?.clear();
  }

  /**
   * Runs one workflow task and answers it. The claim (the engine arms start-to-close from it) is
   * written if the task is still unanswered after the claim delay, and retried until it lands; the
   * completion or failure is retried while the partition is this worker's. A task whose answer
   * could not be written by then is handed back (TaskHandedBackError), never committed past
   * unanswered.
   */
  private async process(record: LogRecord, taken: AbortSignal): Promise<void> {
    if (!record.value) return;
    const task = await this.connection.serde.decode(workflowTaskCodec, record.value);
    const run: RunRef = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId };
    const ref = { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: this.options.identity };
    // The answer implies the claim: a task answered within the claim delay sends none, and once the
    // answer is written a claim still retrying is not needed.
    const signals = answerSignals(taken);
    const claiming = signals.answeredOrTaken;
    claimUnlessAnsweredWithin(CLAIM_DEFER_MS, claiming, () => this.commands.writeUntilDone(run, { type: 'WorkflowTaskStarted', ...ref }, claiming));
    try {
      await this.answer(run, ref, task, await this.runner!.run(task), taken);
    } finally {
      signals.answer();
    }
  }

  /** Writes the completion or failure, retried while the partition is this worker's. */
  private async answer(run: RunRef, ref: TaskAttemptRef, task: WorkflowTask, result: WorkflowTaskResult, taken: AbortSignal): Promise<void> {
    if (result.type !== 'completed') {
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskFailed', ...ref, cause: taskFailedCause(result), failure: result.failure }, taken);
      return;
    }
    try {
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskCompleted', ...ref, commands: result.commands, sdkFlags: [], sdkName: SDK_NAME, sdkVersion: SDK_VERSION }, taken);
    } catch (error) {
      if (!isPermanentWriteError(error)) throw error;
      // A completion that can never be sent (too large, not encodable) fails the task instead.
      this.runner!.failedToAnswer(task);
      const { cause, failure } = unsendableCompletion(task, error);
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskFailed', ...ref, cause, failure }, taken);
      return;
    }
    this.runner!.answered(task, result.commands);
  }
}
