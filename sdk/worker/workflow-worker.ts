import { CLAIM_DEFER_MS, claimUnlessAnsweredWithin } from './deferred-claim.js';
import type { LogRecord } from '../../topics/log/log.js';
import type { TaskAttemptRef } from '../../topics/schemas/command/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { workflowTaskCodec } from '../../topics/serde/index.js';
import { ensureTaskTopics } from '../../topics/topic-setup.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { WorkflowRun, type WorkflowTaskResult } from '../replay/workflow-run.js';
import { EvictionRequiredError, type WorkflowTaskFailureCause } from '../replay/errors.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import { isTooLarge, tooLargeFailure } from './oversized-output.js';
import type { ActivityFunction } from './activity-worker.js';
import { LOCAL_ACTIVITY_BUDGET_SHARE, LocalActivityExecutor } from './local-activity-executor.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { QueryWorker, type QueryWorkerOptions } from './query-worker.js';
import { TaskConsumer } from './task-consumer.js';
import { CommandWriter, toFailure, type RunRef, type WorkerConnection } from './worker-connection.js';
import { isPermanentWriteError } from './write-retry.js';
import { defaultCacheCapacity, WorkflowCache } from './workflow-cache.js';
import { answerSignals } from './answer-signals.js';

/** The history's cause for each way a workflow task fails on the worker (the failure says more). */
const TASK_FAILED_CAUSE: Readonly<Record<WorkflowTaskFailureCause, WorkflowTaskFailedCause>> = {
  NonDeterminism: 'NonDeterministicError',
  WorkflowCodeError: 'WorkflowWorkerUnhandledFailure',
  Deadlock: 'WorkflowWorkerUnhandledFailure',
  UnknownWorkflowType: 'WorkflowWorkerUnhandledFailure',
};

/** Workflow commands that end the run. */
const CLOSING_COMMANDS: ReadonlySet<string> = new Set(['CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution']);

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
}

/**
 * Runs workflow tasks of one task queue. Tasks are keyed by workflow, so the same worker keeps a
 * run cached and needs only the new events; on a miss (or a gap) it fetches the full history from
 * the shard owner and replays it. One partition's tasks run in order. Queries of the queue are
 * answered beside the tasks, never behind them (see {@link QueryWorker}).
 */
export class WorkflowWorker {
  private readonly commands: CommandWriter;
  private readonly cache: WorkflowCache;
  private tasks: TaskConsumer | undefined;
  private queries: QueryWorker | undefined;
  private bundle: WorkflowBundle | undefined;
  private readonly localActivities: LocalActivityExecutor;

  constructor(
    private readonly connection: WorkerConnection,
    private readonly options: WorkflowWorkerOptions,
  ) {
    this.commands = new CommandWriter(connection);
    this.cache = new WorkflowCache(options.maxCachedWorkflows ?? defaultCacheCapacity());
    this.localActivities = new LocalActivityExecutor(options.localActivities ?? {}, connection.dataConverter);
  }

  async start(): Promise<void> {
    const { log, catalog } = this.connection;
    const { namespace, taskQueue, identity } = this.options;
    const workflows = this.options.workflowsPath;
    this.bundle = typeof workflows === 'string' ? await bundleWorkflowCode({ workflowsPath: workflows }) : workflows.bundle;
    await ensureTaskTopics(log.admin, catalog, namespace, taskQueue);
    this.tasks = new TaskConsumer({
      log,
      topic: catalog.taskTopics(namespace, taskQueue).workflow,
      groupId: `${catalog.prefix}-workflow-workers-${namespace}-${taskQueue}`,
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
      bundle: this.bundle,
      cache: this.cache,
      history: this.options.history,
      ...(this.options.deadlockTimeoutMs ? { deadlockTimeoutMs: this.options.deadlockTimeoutMs } : {}),
      ...(this.options.onQuery ? { onQuery: this.options.onQuery } : {}),
    });
    await this.queries.start();
  }

  async stop(graceMs = 10_000): Promise<void> {
    await Promise.all([this.tasks?.stop(graceMs), this.queries?.stop(graceMs)]);
    this.cache.clear();
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
      await this.answer(run, ref, task, await this.outcome(task), taken);
    } finally {
      signals.answer();
    }
  }

  /** What the task's activation produced; an activation that throws (history unreadable, a bug) is a failed task. */
  private async outcome(task: WorkflowTask): Promise<WorkflowTaskResult> {
    const started = performance.now();
    try {
      const { result, cacheHit } = await this.activate(task);
      this.options.onTask?.({ cacheHit, replayMs: performance.now() - started, result: result.type });
      return result;
    } catch (error) {
      this.cache.evict(task.runId);
      const message = `workflow task ${task.scheduledEventId} of ${task.workflowId} could not be run: ${error instanceof Error ? error.message : String(error)}`;
      const failure = { ...toFailure(error), message, code: 'WorkflowTaskActivationFailed' };
      this.options.onTask?.({ cacheHit: false, replayMs: performance.now() - started, result: 'failed' });
      return { type: 'failed', cause: 'WorkflowCodeError', taskFailedCause: 'WorkflowWorkerUnhandledFailure', failure };
    }
  }

  /** Writes the completion or failure, retried while the partition is this worker's. */
  private async answer(run: RunRef, ref: TaskAttemptRef, task: WorkflowTask, result: WorkflowTaskResult, taken: AbortSignal): Promise<void> {
    if (result.type !== 'completed') {
      this.cache.evict(task.runId);
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskFailed', ...ref, cause: TASK_FAILED_CAUSE[result.cause], failure: result.failure }, taken);
      return;
    }
    try {
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskCompleted', ...ref, commands: result.commands, sdkFlags: [], sdkName: 'logbook-typescript', sdkVersion: '0.1.0' }, taken);
    } catch (error) {
      if (!isPermanentWriteError(error)) throw error;
      // A completion that can never be sent (too large, not encodable) fails the task instead.
      this.cache.evict(task.runId);
      const failure = isTooLarge(error)
        ? tooLargeFailure(`the completion of workflow task ${task.scheduledEventId} of ${task.workflowId}`, error)
        : toFailure(error);
      const cause = isTooLarge(error) ? 'PayloadTooLarge' : 'WorkflowWorkerUnhandledFailure';
      await this.commands.writeUntilDone(run, { type: 'WorkflowTaskFailed', ...ref, cause, failure }, taken);
      return;
    }
    // A run that closes or continues as new gets no more tasks (unless the engine refuses the
    // completion, and then a replay serves): free its sandbox now, so a long chain of runs does
    // not fill the cache with finished ones.
    if (result.commands.some((c) => CLOSING_COMMANDS.has(c.type))) this.cache.evict(task.runId);
    // A speculative update task that only rejected updates leaves no trace in history, but the
    // cached run applied the task's synthesised Scheduled and Started events: rebuild it next time.
    else if (leavesNoTrace(task, result.commands)) this.cache.evict(task.runId);
  }

  private async activate(task: WorkflowTask): Promise<{ result: WorkflowTaskResult; cacheHit: boolean }> {
    // Counted from now, when the task was claimed: the engine's start-to-close timer runs from the claim.
    const budgetDeadline = Date.now() + task.startToCloseTimeoutMs * LOCAL_ACTIVITY_BUDGET_SHARE;
    const runLocal = (requests: Parameters<LocalActivityExecutor['run']>[0]) => this.localActivities.run(requests, { ...task, budgetDeadline });
    const cached = this.cache.get(task.runId);
    const events = withTaskEvents(task, this.options.identity);
    const first = events[0]?.eventId;
    // A hit needs the task's events to overlap or continue the cached run (the overlap is skipped)
    // and the engine to have taken the cached run's last completion.
    if (cached && first !== undefined && first <= cached.lastEventId + 1 && tookLastCompletion(cached.lastEventId, events)) {
      try {
        return { result: await cached.activateWithLocalActivities(events.filter((e) => e.eventId > cached.lastEventId), runLocal, task.messages), cacheHit: true };
      } catch (error) {
        // The engine failed a task this run completed (e.g. UnhandledCommand): rebuild from history.
        if (!(error instanceof EvictionRequiredError)) throw error;
      }
    }
    if (cached) this.cache.evict(task.runId);
    // A run's first task carries its whole history; later misses page it from the shard owner.
    const history = first === 1 ? events : [...(await this.options.history.fetch(task, task.lastEventId)), ...events.filter((e) => e.eventId > task.lastEventId)];
    const run = WorkflowRun.create(
      this.bundle!,
      { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, taskQueue: task.taskQueue },
      { dataConverter: this.connection.dataConverter, ...(this.options.deadlockTimeoutMs ? { deadlockTimeoutMs: this.options.deadlockTimeoutMs } : {}) },
    );
    const result = await run.activateWithLocalActivities(history, runLocal, task.messages);
    if (result.type === 'completed') this.cache.set(task.runId, run);
    else run.dispose();
    return { result, cacheHit: false };
  }
}

/**
 * True when `events` (a task's, which begin two events before the last completion) show the
 * completion of the task a cached run last ran: that run ends with the task's synthesised
 * WorkflowTaskStarted (`startedEventId`), so history must have its WorkflowTaskCompleted right
 * after it. Otherwise the engine discarded that completion — it came after the attempt timed out
 * (an unclaimed task is sent again as a new attempt) or was refused — and the cached run went
 * past what history keeps: it must be replayed, even when no event in the task says so (a
 * transient attempt that timed out writes nothing).
 */
function tookLastCompletion(startedEventId: number, events: readonly HistoryEvent[]): boolean {
  const next = events.find((e) => e.eventId === startedEventId + 1);
  return next?.attributes.type === 'WorkflowTaskCompleted' && next.attributes.scheduledEventId === startedEventId - 1;
}

/** True for a speculative task (attempt 1, nothing written) whose completion only rejects updates: the engine writes nothing. */
function leavesNoTrace(task: WorkflowTask, commands: readonly WorkflowCommand[]): boolean {
  const speculative = task.attempt === 1 && task.scheduledEventId > task.lastEventId;
  return speculative && commands.every((c) => c.type === 'ProtocolMessage' && c.body.type === 'UpdateRejection');
}

/**
 * The task's events, ending with its WorkflowTaskScheduled and WorkflowTaskStarted events, which the
 * engine writes only when the task completes. A transient retry (attempt ≥ 2) has no Scheduled
 * event in history yet; the worker synthesises it from the task with the time the engine will
 * record, so replay sees the same workflow time either way. WorkflowTaskStarted is synthesised
 * with the history facts the task carries (`suggestContinueAsNew`, size), the values the engine
 * records in it, so `workflowInfo()` reads the same live and on replay.
 */
export function withTaskEvents(task: WorkflowTask, identity: string): HistoryEvent[] {
  const envelope = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, taskQueue: task.taskQueue };
  const events = [...task.events];
  if (task.scheduledEventId > task.lastEventId) {
    events.push({
      ...envelope,
      eventId: task.scheduledEventId,
      eventTime: task.scheduledTime,
      attributes: { type: 'WorkflowTaskScheduled', taskQueue: task.taskQueue, startToCloseTimeoutMs: task.startToCloseTimeoutMs, attempt: task.attempt },
    });
  }
  events.push({
    ...envelope,
    eventId: task.startedEventIdHint,
    eventTime: task.scheduledTime,
    attributes: {
      type: 'WorkflowTaskStarted', scheduledEventId: task.scheduledEventId, identity, requestId: '',
      historySizeBytes: task.historySizeBytes, suggestContinueAsNew: task.suggestContinueAsNew,
    },
  });
  return events;
}
