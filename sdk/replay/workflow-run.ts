/**
 * The replay engine: one cached workflow run. History events go in; at each recorded
 * `WorkflowTaskCompleted` the workflow code is re-run and the commands it produces are matched,
 * in order, against the command events recorded after it; at the open `WorkflowTaskScheduled` the
 * code runs live and its commands are returned. A cached run fed the next task's events matches
 * the commands it produced last time the same way, so a cache hit and a full replay agree.
 * @module
 */
import { format } from 'node:util';
import { runtimeLogger } from '../common/logger.js';
import { defaultDataConverter, type DataConverter, type Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';
import type { ActivationInput, HostBridge, LogLevel } from '../workflow/bridge.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { DeadlockError, SandboxContextLostError, sharedAsyncLocalStorage, WorkflowSandbox } from '../workflow/sandbox.js';
import { QueryFailureCode } from '../workflow/queries.js';
import { copyIntoRealm } from '../workflow/realm-copy.js';
import { withSharedWatchdog } from '../workflow/shared-watchdog.js';
import { decodePayloads, FAILURE_SOURCE, failureFromInfo, toHostValue, toWorkflowCommand, type CommandContext } from './conversions.js';
import { EvictionRequiredError, HistoryShapeError, NonDeterminismError, WorkflowTaskFailedError, type WorkflowTaskFailureCause } from './errors.js';
import { HistoryApplier, type RunState } from './history-applier.js';
import type { LocalActivityOutcome, LocalActivityRequest } from './local-activity-markers.js';
import type { ActivationStep } from './local-activity-steps.js';

/** Identity of the run a {@link WorkflowRun} replays. */
export interface WorkflowRunIdentity {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
}

/** Receives what workflow code logs through `console` (never while replaying). */
export type WorkflowLogger = (level: LogLevel, args: unknown[], run: WorkflowRunIdentity) => void;

/** Options of {@link WorkflowRun.create}. */
export interface WorkflowRunOptions {
  /** Budget of one activation before it fails with `Deadlock`; default 1000 ms. */
  deadlockTimeoutMs?: number;
  /** Default: JSON / binary / undefined converters. */
  dataConverter?: DataConverter;
  /** Default: the worker's console, prefixed with the workflow type and id. */
  logger?: WorkflowLogger;
}

/** Runs the local activities a workflow task asks for (the worker's executor) and resolves with their outcomes. */
export type LocalActivityRunner = (requests: readonly LocalActivityRequest[]) => Promise<LocalActivityOutcome[]>;

/** Result of the workflow task being processed. */
export type WorkflowTaskResult =
  | { type: 'completed'; commands: WorkflowCommand[] }
  | {
      type: 'failed';
      cause: WorkflowTaskFailureCause;
      /** The same reason in the engine's vocabulary: send this in `WorkflowTaskFailed.cause`. */
      taskFailedCause: WorkflowTaskFailedCause;
      failure: Failure;
    };

/** How a query ended: the handler's result, or a failure (`UnknownQuery`, `QueryFailed`). */
export type QueryResult = { type: 'answered'; result: Payload } | { type: 'failed'; failure: Failure };

/** The most workflow tasks a step may run under the shared watchdog (they share its one deadlock timeout). */
const MAX_TASKS_PER_SHARED_STEP = 4;

/**
 * Workflow logs go to the process's logger (`Runtime.install`) with the run's attributes: a
 * message and an attribute object as the workflow `log` passes them, or `console` arguments
 * formatted into one message.
 */
const defaultLogger: WorkflowLogger = (level, args, run) => {
  const [first, second] = args;
  const structured = args.length <= 2 && typeof first === 'string' && (second === undefined || (typeof second === 'object' && second !== null && !Array.isArray(second)));
  const message = structured ? first : format(...args);
  const attributes = { sdkComponent: 'workflow', namespace: run.namespace, taskQueue: run.taskQueue, workflowId: run.workflowId, runId: run.runId, workflowType: run.workflowType };
  runtimeLogger().log(LOGGER_LEVELS[level], message, { ...attributes, ...(structured ? (second as Record<string, unknown> | undefined) : undefined) });
};
const LOGGER_LEVELS = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' } as const;

/**
 * One cached workflow run.
 *
 * @example
 * const run = WorkflowRun.create(bundle, { namespace, workflowId, runId, workflowType, taskQueue });
 * const result = run.activate(fullHistory);           // cache miss: from event 1
 * // next task of the same run, same worker:
 * const next = run.activate(events.filter((e) => e.eventId > run.lastEventId));
 */
export class WorkflowRun {
  readonly identity: WorkflowRunIdentity;
  readonly converter: DataConverter;
  readonly #bundle: WorkflowBundle;
  readonly #deadlockTimeoutMs: number;
  readonly #logger: WorkflowLogger;
  readonly #history: HistoryApplier;
  #sandbox: WorkflowSandbox | null = null;
  #unusable: string | null = null;

  private constructor(bundle: WorkflowBundle, identity: WorkflowRunIdentity, options: WorkflowRunOptions) {
    this.#bundle = bundle;
    this.identity = { ...identity };
    this.converter = options.dataConverter ?? defaultDataConverter;
    this.#deadlockTimeoutMs = options.deadlockTimeoutMs ?? 1_000;
    this.#logger = options.logger ?? defaultLogger;
    const state: RunState = {
      identity: this.identity,
      converter: this.converter,
      startSandbox: (started) => this.#startSandbox(started),
      runActivation: (timeMs, isReplaying, task, jobs, lookups) => this.#runActivation({ timeMs, isReplaying, task, jobs }, lookups),
    };
    this.#history = new HistoryApplier(state);
  }

  /** Creates a run; its sandbox is created when `WorkflowExecutionStarted` is applied. */
  static create(bundle: WorkflowBundle, identity: WorkflowRunIdentity, options: WorkflowRunOptions = {}): WorkflowRun {
    return new WorkflowRun(bundle, identity, options);
  }

  /** Highest event id applied (the next `activate` must start right after it). */
  get lastEventId(): number {
    return this.#history.lastEventId;
  }

  /**
   * Applies the events this run has not seen (on a cache miss: the full history from event 1),
   * then runs the workflow task that is open at the end of them, delivering the task's update
   * `messages` after the events' jobs.
   *
   * @returns `completed` with the commands to send, or `failed` (non-determinism, a code error, a
   *   deadlock, an unknown workflow type): after `failed` the run must be evicted
   * @throws EvictionRequiredError when this cached run cannot continue (events that do not follow
   *   `lastEventId`, a task it completed was failed or timed out by the engine, or a previous
   *   failure): evict it and replay the full history on a new run
   */
  activate(newEvents: readonly HistoryEvent[], messages: readonly UpdateRequestMessage[] = []): WorkflowTaskResult {
    this.#assertUsable(newEvents);
    try {
      this.#history.applyAll(newEvents);
      if (this.#history.startOpenTask(messages).localActivities.length > 0) {
        const message = 'the workflow asked for a local activity, but this run has no local activity runner (use activateWithLocalActivities)';
        throw new WorkflowTaskFailedError('WorkflowCodeError', message, hostFailure('LocalActivitiesUnavailable', message, ''));
      }
      return { type: 'completed', commands: this.#history.finishOpenTask() };
    } catch (err) {
      return this.#failedResult(err);
    }
  }

  /**
   * {@link activate} for a query worker: runs the open task's code as far as it goes without its
   * local activities (they are not run here), so a query answers from the state the task reached.
   */
  activateForQuery(newEvents: readonly HistoryEvent[]): WorkflowTaskResult {
    this.#assertUsable(newEvents);
    try {
      this.#history.applyAll(newEvents);
      this.#history.startOpenTask();
      return { type: 'completed', commands: this.#history.finishOpenTask() };
    } catch (err) {
      return this.#failedResult(err);
    }
  }

  /**
   * {@link activate} for a worker that runs local activities: while the open task's code asks for
   * some, `runLocalActivities` runs them and the code continues with their outcomes, in the same
   * workflow task; their markers are among the returned commands.
   */
  async activateWithLocalActivities(newEvents: readonly HistoryEvent[], runLocalActivities: LocalActivityRunner, messages: readonly UpdateRequestMessage[] = []): Promise<WorkflowTaskResult> {
    this.#assertUsable(newEvents);
    // A step of a few workflow tasks (a cached run's next one, a new run's first, a short replay)
    // runs under one watchdog with the other activations ready in this turn (see
    // shared-watchdog.ts), its tasks sharing one deadlock timeout; a longer replay bounds each
    // activation on its own, as a direct call does.
    const shared = newEvents.filter((e) => e.attributes.type === 'WorkflowTaskStarted').length <= MAX_TASKS_PER_SHARED_STEP;
    const bounded = <T>(step: () => T): Promise<T> | T => (shared ? withSharedWatchdog(this.#deadlockTimeoutMs, step) : step());
    try {
      let step = await bounded(() => {
        // Queued for a turn: the cache may have disposed the run meanwhile (then it is replayed).
        this.#assertUsable(newEvents);
        this.#history.applyAll(newEvents);
        return this.#history.startOpenTask(messages);
      });
      while (step.localActivities.length > 0) {
        const outcomes = await runLocalActivities(step.localActivities);
        step = await bounded(() => {
          this.#assertUsable([]);
          return this.#history.continueOpenTask(outcomes);
        });
      }
      return { type: 'completed', commands: this.#history.finishOpenTask() };
    } catch (err) {
      return this.#failedResult(err);
    }
  }

  /**
   * Applies a recorded history without running its open task (the replayer's job).
   * @throws NonDeterminismError, DeadlockError or WorkflowTaskFailedError on the first failing task
   */
  replayRecorded(events: readonly HistoryEvent[]): void {
    this.#assertUsable(events);
    try {
      this.#history.applyAll(events);
    } catch (err) {
      this.#unusable = 'replay failed';
      throw err;
    }
  }

  /**
   * Answers a query from the run's current state — what the workflow code saw after the events
   * applied so far. Call it between activations (activations are synchronous, so a worker never
   * interleaves one). Nothing changes: the handler runs in query mode (see `sdk/workflow/queries.ts`).
   * A handler that exceeds the deadlock timeout fails the query and makes the run unusable (its
   * context was interrupted), so the worker's next task on it evicts and replays.
   * @throws EvictionRequiredError when the run cannot be used (a failed task, disposed): replay instead
   */
  query(queryType: string, args: readonly Payload[]): QueryResult {
    this.#assertUsable([]);
    if (this.#sandbox === null) {
      return { type: 'failed', failure: hostFailure(QueryFailureCode.QueryFailed, `workflow run ${this.identity.runId} has not started yet`, '') };
    }
    try {
      const output = this.#sandbox.query({ queryType, args: decodePayloads(this.converter, args) });
      if (output.failure !== null) return { type: 'failed', failure: failureFromInfo(output.failure) };
      return { type: 'answered', result: output.result as Payload };
    } catch (err) {
      if (err instanceof DeadlockError) this.#unusable = 'a query handler deadlocked';
      if (err instanceof SandboxContextLostError) this.#unusable = err.message;
      const message = `query '${queryType}' failed: ${String((err as Error)?.message ?? err)}`;
      return { type: 'failed', failure: hostFailure(QueryFailureCode.QueryFailed, message, stackOf(err)) };
    }
  }

  /** Releases the sandbox. The run cannot be used afterwards. */
  dispose(): void {
    this.#sandbox?.dispose();
    this.#sandbox = null;
    this.#unusable = 'it was disposed';
  }

  // Called when the history starts: the sandbox needs the seed, the start time and the run's chain.
  #startSandbox(started: HistoryEvent<'WorkflowExecutionStarted'>): void {
    const { attempt, prngSeed, firstExecutionRunId, continuedExecutionRunId, memo: memoPayloads, lastCompletionResult, continuedFailure, parent, searchAttributes } = started.attributes;
    if (!this.#bundle.workflowTypes.includes(this.identity.workflowType)) {
      const known = this.#bundle.workflowTypes.join(', ');
      const message = `workflow type ${this.identity.workflowType} is not exported by ${this.#bundle.workflowsPath} (exported: ${known})`;
      throw new WorkflowTaskFailedError('UnknownWorkflowType', message, hostFailure('UnknownWorkflowType', message, ''));
    }
    const info = { ...this.identity, attempt, startTimeMs: started.eventTime, firstExecutionRunId, continuedFromExecutionRunId: continuedExecutionRunId,
      memo: Object.fromEntries(Object.entries(memoPayloads ?? {}).map(([key, value]) => [key, this.converter.fromPayload(value)])),
      lastResult: lastCompletionResult ? this.converter.fromPayload(lastCompletionResult) : undefined,
      lastFailure: continuedFailure ? { message: continuedFailure.message, type: continuedFailure.code } : null,
      parent: parent === null ? null : { namespace: parent.namespace, workflowId: parent.workflowId, runId: parent.runId },
      searchAttributes: searchAttributes ?? {},
    };
    const bridge: HostBridge = {
      info,
      prngSeed,
      encode: (value) => this.converter.toPayload(toHostValue(value)),
      log: (level, args) => this.#logger(level, args, this.identity),
      asyncLocalStorage: sharedAsyncLocalStorage,
    };
    try {
      this.#sandbox = WorkflowSandbox.create(this.#bundle, bridge, { deadlockTimeoutMs: this.#deadlockTimeoutMs });
    } catch (err) {
      if (err instanceof DeadlockError) throw err;
      const message = `workflow bundle failed to evaluate: ${(err as Error).message}`;
      throw new WorkflowTaskFailedError('WorkflowCodeError', message, hostFailure(codeOf(err), message, stackOf(err)));
    }
  }

  #runActivation(input: ActivationInput, lookups: Omit<CommandContext, 'converter'>): ActivationStep {
    if (this.#sandbox === null) {
      throw new HistoryShapeError('a workflow task came before WorkflowExecutionStarted: give the history from event 1');
    }
    const output = this.#sandbox.activate(input);
    if (output.taskFailure !== null) {
      const failure = failureFromInfo(output.taskFailure);
      const cause = failure.code === 'UnknownWorkflowType' ? 'UnknownWorkflowType' : 'WorkflowCodeError';
      throw new WorkflowTaskFailedError(cause, `workflow code failed the task: ${failure.code}: ${failure.message}`, failure);
    }
    const context = { converter: this.converter, ...lookups };
    const step: ActivationStep = { commands: [], localActivities: [] };
    // Array.from, not .map: the sandbox's array would give results from the sandbox's realm.
    for (const command of Array.from(output.commands)) {
      if (command.type !== 'ScheduleLocalActivity') step.commands.push(toWorkflowCommand(command, context));
      else step.localActivities.push({ seq: command.seq, activityType: String(command.activityType), args: Array.from(command.args) as Payload[], options: copyIntoRealm(command.options) });
    }
    return step;
  }

  #assertUsable(events: readonly HistoryEvent[]): void {
    if (this.#unusable !== null) {
      throw new EvictionRequiredError(`workflow run ${this.identity.runId} cannot be used because ${this.#unusable}: evict it and replay the full history`);
    }
    let expected = this.lastEventId + 1;
    for (const event of events) {
      if (event.eventId !== expected || event.runId !== this.identity.runId) {
        throw new EvictionRequiredError(
          `events must continue run ${this.identity.runId} from event ${expected}, got event ${event.eventId} of run ${event.runId}`,
        );
      }
      expected++;
    }
  }

  #failedResult(err: unknown): WorkflowTaskResult {
    if (err instanceof SandboxContextLostError) err = new EvictionRequiredError(`workflow run ${this.identity.runId} cannot be used because ${err.message}`);
    if (err instanceof EvictionRequiredError || err instanceof HistoryShapeError) {
      this.#unusable = err.message;
      throw err;
    }
    this.#unusable = 'its last workflow task failed';
    if (err instanceof NonDeterminismError) return failed('NonDeterminism', 'NonDeterministicError', hostFailure('NonDeterminismError', err.message, stackOf(err)));
    if (err instanceof DeadlockError) return failed('Deadlock', 'WorkflowWorkerUnhandledFailure', hostFailure('DeadlockError', err.message, stackOf(err)));
    if (err instanceof WorkflowTaskFailedError) return failed(err.taskFailureCause, 'WorkflowWorkerUnhandledFailure', err.failure);
    return failed('WorkflowCodeError', 'WorkflowWorkerUnhandledFailure', hostFailure(codeOf(err), String((err as Error)?.message ?? err), stackOf(err)));
  }
}

function failed(cause: WorkflowTaskFailureCause, taskFailedCause: WorkflowTaskFailedCause, failure: Failure): WorkflowTaskResult {
  return { type: 'failed', cause, taskFailedCause, failure };
}

function hostFailure(code: string, message: string, stackTrace: string): Failure {
  return { message, source: FAILURE_SOURCE, stackTrace, code, nonRetryable: false, details: null, cause: null };
}

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : String((err as Error)?.name ?? 'Error');
}

function stackOf(err: unknown): string {
  const stack = (err as Error)?.stack;
  return typeof stack === 'string' ? stack : '';
}
