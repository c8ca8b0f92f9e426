import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { WorkflowRun, type WorkflowTaskResult } from '../replay/workflow-run.js';
import { EvictionRequiredError } from '../replay/errors.js';
import type { ActivityFunction } from './activity-worker.js';
import { LOCAL_ACTIVITY_BUDGET_SHARE, LocalActivityExecutor } from './local-activity-executor.js';
import { toFailure } from './worker-connection.js';
import { defaultCacheCapacity, WorkflowCache } from './workflow-cache.js';
import type { HistoryFetcher } from './workflow-worker.js';
import { withTaskEvents } from './workflow-task-events.js';
import type { WorkerPayloads } from './worker-payloads.js';

/** Workflow commands that end the run. */
const CLOSING_COMMANDS: ReadonlySet<string> = new Set(['CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution']);

/** Options of a {@link WorkflowTaskRunner}. */
export interface WorkflowTaskRunnerOptions {
  readonly bundle: WorkflowBundle;
  readonly dataConverter: DataConverter;
  readonly identity: string;
  readonly history: HistoryFetcher;
  readonly localActivities?: Readonly<Record<string, ActivityFunction>>;
  readonly maxCachedWorkflows?: number;
  readonly deadlockTimeoutMs?: number;
  readonly onTask?: (event: { cacheHit: boolean; replayMs: number; result: WorkflowTaskResult['type'] }) => void;
  /** The worker's payload codecs: tasks and history are decoded before replay, the commands encoded after. */
  readonly payloads?: WorkerPayloads;
}

/**
 * Runs workflow tasks, whichever way they arrive (a task topic or the gateway's HTTP polls): keeps
 * runs cached so a task needs only its new events, replays from history on a miss or a gap, and
 * runs local activities within the task. The caller sends the result and reports back with
 * {@link answered} or {@link failedToAnswer}, which decide what stays cached.
 */
export class WorkflowTaskRunner {
  /** The runs held in memory, shared with the query answerer. */
  readonly cache: WorkflowCache;
  private readonly localActivities: LocalActivityExecutor;

  constructor(private readonly options: WorkflowTaskRunnerOptions) {
    this.cache = new WorkflowCache(options.maxCachedWorkflows ?? defaultCacheCapacity());
    this.localActivities = new LocalActivityExecutor(options.localActivities ?? {}, options.dataConverter);
  }

  /**
   * What the task's activation produced; an activation that throws (history unreadable, a payload
   * whose key was erased, a bug) is a failed task.
   */
  async run(task: WorkflowTask): Promise<WorkflowTaskResult> {
    const started = performance.now();
    try {
      const payloads = this.options.payloads;
      // Read before decoding: an encrypted payload names its subject only on the outside.
      const start = payloads?.startSubject(task.events);
      const activated = await this.activate(payloads ? await payloads.decode(task) : task, start?.subject);
      const { cacheHit } = activated;
      const result = payloads && activated.result.type === 'completed'
        ? { ...activated.result, commands: await payloads.encode(activated.result.commands, activated.subject) }
        : activated.result;
      this.options.onTask?.({ cacheHit, replayMs: performance.now() - started, result: result.type });
      if (result.type !== 'completed') this.cache.evict(task.runId);
      return result;
    } catch (error) {
      this.cache.evict(task.runId);
      const message = `workflow task ${task.scheduledEventId} of ${task.workflowId} could not be run: ${error instanceof Error ? error.message : String(error)}`;
      const failure = { ...toFailure(error), message, code: 'WorkflowTaskActivationFailed' };
      this.options.onTask?.({ cacheHit: false, replayMs: performance.now() - started, result: 'failed' });
      return { type: 'failed', cause: 'WorkflowCodeError', taskFailedCause: 'WorkflowWorkerUnhandledFailure', failure };
    }
  }

  /**
   * The task's completion was sent. A run that closes or continues as new gets no more tasks
   * (unless the engine refuses the completion, and then a replay serves): its sandbox is freed now,
   * so a long chain of runs does not fill the cache with finished ones. A speculative update task
   * that only rejected updates leaves no trace in history, but the cached run applied the task's
   * synthesised Scheduled and Started events: it is rebuilt next time.
   */
  answered(task: WorkflowTask, commands: readonly WorkflowCommand[]): void {
    if (commands.some((c) => CLOSING_COMMANDS.has(c.type)) || leavesNoTrace(task, commands)) this.cache.evict(task.runId);
  }

  /** The completion could not be sent (the task is failed instead): the cached run went past history. */
  failedToAnswer(task: WorkflowTask): void {
    this.cache.evict(task.runId);
  }

  clear(): void {
    this.cache.clear();
  }

  /**
   * Activates the task on the cached run, or on a run rebuilt from history; `startSubject` is the
   * subject the task's own start event names (a first task). The answer carries the run's subject,
   * which the run is cached with: from the start event of the task, the cached entry, or history.
   */
  private async activate(task: WorkflowTask, startSubject: string | undefined): Promise<{ result: WorkflowTaskResult; cacheHit: boolean; subject: string | undefined }> {
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
        const subject = startSubject ?? this.cache.subjectOf(task.runId);
        return { result: await cached.activateWithLocalActivities(events.filter((e) => e.eventId > cached.lastEventId), runLocal, task.messages), cacheHit: true, subject };
      } catch (error) {
        // The engine failed a task this run completed (e.g. UnhandledCommand): rebuild from history.
        if (!(error instanceof EvictionRequiredError)) throw error;
      }
    }
    if (cached) this.cache.evict(task.runId);
    // A run's first task carries its whole history; later misses page it from the shard owner.
    const fetched = first === 1 ? { events: [], subject: startSubject } : await this.fetchHistory(task);
    const history = first === 1 ? events : [...fetched.events, ...events.filter((e) => e.eventId > task.lastEventId)];
    const run = WorkflowRun.create(
      this.options.bundle,
      { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, taskQueue: task.taskQueue },
      { dataConverter: this.options.dataConverter, ...(this.options.deadlockTimeoutMs ? { deadlockTimeoutMs: this.options.deadlockTimeoutMs } : {}) },
    );
    const result = await run.activateWithLocalActivities(history, runLocal, task.messages);
    if (result.type === 'completed') this.cache.set(task.runId, run, fetched.subject);
    else run.dispose();
    return { result, cacheHit: false, subject: fetched.subject };
  }

  /** The run's history up to the task, decoded when the worker has codecs, with its start input's subject. */
  private async fetchHistory(task: WorkflowTask): Promise<{ events: HistoryEvent[]; subject: string | undefined }> {
    const { payloads, history } = this.options;
    if (payloads) return payloads.fetchHistory(history, task, task.lastEventId);
    return { events: await history.fetch(task, task.lastEventId), subject: undefined };
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
function tookLastCompletion(startedEventId: number, events: ReturnType<typeof withTaskEvents>): boolean {
  const next = events.find((e) => e.eventId === startedEventId + 1);
  return next?.attributes.type === 'WorkflowTaskCompleted' && next.attributes.scheduledEventId === startedEventId - 1;
}

/** True for a speculative task (attempt 1, nothing written) whose completion only rejects updates: the engine writes nothing. */
function leavesNoTrace(task: WorkflowTask, commands: readonly WorkflowCommand[]): boolean {
  const speculative = task.attempt === 1 && task.scheduledEventId > task.lastEventId;
  return speculative && commands.every((c) => c.type === 'ProtocolMessage' && c.body.type === 'UpdateRejection');
}
