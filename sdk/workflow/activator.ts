/**
 * The run's state inside the sandbox (Temporal's `Activator`): it applies an activation's jobs to
 * the workflow's pending promises, collects the commands the code issues, and decides how an
 * error ends things — a {@link WorkflowFailure} fails the run, anything else fails the task.
 * Completions are keyed by sequence numbers, one counter per kind, as in Temporal.
 * @module
 */
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';
import type { RunTimers } from './sandbox-globals.js';
import type {
  ActivationInput,
  ActivationJob,
  ActivationOutput,
  AsyncLocalStorageLike,
  HostBridge,
  SandboxCommand,
  WorkflowRunInfo,
  WorkflowTaskFacts,
} from './bridge.js';
import { ContinueAsNew } from './continue-as-new.js';
import { resolveChild, resolveChildStart, type PendingChild } from './child-workflows.js';
import { createRootScope, type CancellationScope } from './cancellation-scope.js';
import { ActivityFailure, ApplicationFailure, DeterminismViolationError, IllegalStateError, isCancellation, WorkflowFailure } from './errors.js';
import { errorFromFailureInfo, failureInfoFromError } from './failure-info.js';
import { resolveLocalActivity } from './local-activities.js';
import { createPrng, type Random } from './prng.js';
import { copyIntoRealm } from './realm-copy.js';
import { deliverUpdate, rejectUnhandledUpdates, type UpdateHandlerEntry } from './updates.js';
import type { UpdateJob } from './bridge.js';

/** A workflow function as exported by the user's module. */
export type WorkflowFunction = (...args: unknown[]) => unknown;
/** A signal handler as passed to `setHandler`. */
export type SignalHandler = (...args: unknown[]) => unknown;
/** A query handler as passed to `setHandler` (synchronous; see `queries.ts`). */
export type QueryHandler = (...args: unknown[]) => unknown;

/** How a pending operation is settled. */
export interface Completion {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A pending activity (its type is needed to describe its failure). */
export interface PendingActivity extends Completion {
  activityType: string;
}

/** A blocked `condition`. */
export interface PendingCondition {
  fn: () => boolean;
  resolve(): void;
}

type SeqKind = 'activity' | 'timer' | 'condition' | 'sideEffect' | 'external' | 'localActivity' | 'child';

/** What a query handler tried to do, per sequence kind (for the refusal's message). */
const SEQ_ACTION: Readonly<Record<SeqKind, string>> = {
  activity: 'schedule an activity',
  timer: 'start a timer',
  condition: 'wait on a condition',
  external: 'signal or cancel another workflow',
  sideEffect: 'record a side effect',
  localActivity: 'run a local activity',
  child: 'start a child workflow',
};

/** The error a signal or cancellation request to another workflow rejects with (Temporal's wording). */
function externalFailure(cause: string): ApplicationFailure {
  const what = cause === 'ExternalWorkflowExecutionNotFound' ? 'it was not found (or is already closed)' : cause;
  return ApplicationFailure.nonRetryable(`Unable to signal or cancel external workflow because ${what}`, cause);
}

/** Commands that end the run (update messages go before them). */
const CLOSING_COMMANDS: ReadonlySet<string> = new Set(['CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution']);

/** The state of one run inside its sandbox. */
export class Activator {
  /** The workflow's current time: the activation's time (the workflow task's scheduled time). */
  now: number;
  isReplaying = false;
  cancelRequested = false;
  /** The current workflow task's history facts (`workflowInfo().historyLength`, …). */
  task: WorkflowTaskFacts = { historyLength: 0, historySizeBytes: 0, continueAsNewSuggested: false };
  readonly info: WorkflowRunInfo;
  /** The run's search attributes as the workflow knows them: those it started with, then its own upserts. */
  searchAttributes: SearchAttributes;
  readonly host: HostBridge;
  readonly random: Random;
  /** The run's `setTimeout` and `clearTimeout`, which the context's shared globals call. */
  readonly globalTimers: RunTimers;
  readonly als: AsyncLocalStorageLike<unknown>;
  readonly rootScope: CancellationScope;
  readonly workflows = new Map<string, WorkflowFunction>();
  readonly activities = new Map<number, PendingActivity>();
  readonly timers = new Map<number, Completion>();
  readonly conditions = new Map<number, PendingCondition>();
  /** Signals and cancellation requests sent to other workflows, awaiting the engine's answer. */
  readonly externals = new Map<number, Completion>();
  /** Child workflows started and not yet ended (or given up by a cancellation). */
  readonly children = new Map<number, PendingChild>();
  readonly signalHandlers = new Map<string, SignalHandler>();
  /** `setDefaultSignalHandler`: gets the signals no handler of their own takes, with their names. */
  defaultSignalHandler: ((signalName: string, ...args: unknown[]) => void | Promise<void>) | undefined;
  readonly bufferedSignals: { signalName: string; args: unknown[] }[] = [];
  readonly queryHandlers = new Map<string, QueryHandler>();
  /** `setDefaultQueryHandler`: answers the queries no handler of their own takes, with their names. */
  defaultQueryHandler: ((queryName: string, ...args: unknown[]) => unknown) | undefined;
  /** Signal and update handlers started and not yet settled (`allHandlersFinished`). */
  runningHandlers = 0;
  /** The run's memo as the workflow sees it: the start's, with its `upsertMemo` calls merged in. */
  memo: Record<string, unknown>;
  readonly updateHandlers = new Map<string, UpdateHandlerEntry>();
  /** Updates delivered before their handler was set (see `updates.ts`). */
  readonly bufferedUpdates: UpdateJob[] = [];
  /** Patches the replayed history recorded so far (`notifyHasPatch`): `patched(id)` is true for them. */
  readonly knownPresentPatches = new Set<string>();
  /** Patches whose marker this run already issued (one marker per patch per run). */
  readonly sentPatches = new Set<string>();
  /** Values the replayed history recorded for `sideEffect` calls, by sequence number, until read. */
  readonly recordedSideEffects = new Map<number, unknown>();
  readonly #seqs: Record<SeqKind, number> = { activity: 0, timer: 0, condition: 0, sideEffect: 0, external: 0, localActivity: 0, child: 0 };
  #commands: SandboxCommand[] = [];
  #taskFailure: { error: unknown } | null = null;
  #closed = false;
  #input: ActivationInput | null = null;
  /** Set while a query runs: everything that would change what the run does next is refused. */
  #query: { queryType: string; refusal: unknown } | null = null;

  constructor(host: HostBridge, timers: (activator: Activator) => RunTimers) {
    this.host = host;
    this.info = host.info;
    this.searchAttributes = { ...(host.info.searchAttributes ?? {}) };
    this.memo = { ...host.info.memo };
    this.now = host.info.startTimeMs;
    const prng = createPrng(host.prngSeed);
    // A draw during a query would shift every later draw of the run: refused, like commands.
    this.random = () => {
      this.#refuseInQuery('draw a random number (Math.random, uuid4)');
      return prng();
    };
    this.als = host.asyncLocalStorage;
    this.rootScope = createRootScope();
    this.globalTimers = timers(this);
  }

  /** The next sequence number of a kind (1, 2, …): activity ids and timer ids are these. */
  nextSeq(kind: SeqKind): number {
    this.#refuseInQuery(SEQ_ACTION[kind]);
    return ++this.#seqs[kind];
  }

  /** Records a command, unless the run already produced its closing command. */
  pushCommand(command: SandboxCommand): void {
    this.#refuseInQuery(`issue a ${command.type} command`);
    if (!this.#closed) this.#commands.push(command);
  }

  /**
   * Records an update protocol message. One issued after the run's closing command goes before
   * it: the engine wants the closing command last, and a handler that finishes as the workflow
   * returns still answers its caller.
   */
  pushUpdateMessage(command: SandboxCommand): void {
    this.#refuseInQuery('answer an update');
    const last = this.#commands.at(-1);
    const closing = last !== undefined && CLOSING_COMMANDS.has(last.type);
    if (!this.#closed) this.#commands.push(command);
    else if (closing) this.#commands.splice(this.#commands.length - 1, 0, command);
  }

  /**
   * Removes a command issued in this activation and not yet sent (cancelling a timer or activity
   * started in the same activation sends neither command, as in Temporal).
   * @returns whether it was found
   */
  dropUnsentCommand(type: 'StartTimer' | 'ScheduleActivityTask' | 'StartChildWorkflowExecution', seq: number): boolean {
    this.#refuseInQuery(`cancel a ${type === 'StartTimer' ? 'timer' : type === 'ScheduleActivityTask' ? 'activity' : 'child workflow'}`);
    const index = this.#commands.findIndex((c) => c.type === type && c.seq === seq);
    if (index >= 0) this.#commands.splice(index, 1);
    return index >= 0;
  }

  /** True once something failed the current activation's task. */
  get hasTaskFailure(): boolean {
    return this.#taskFailure !== null;
  }

  /** Fails the workflow task (the first reason wins); the run's commands are then discarded. */
  failTask(error: unknown): void {
    // During a query the error fails the query, never the next workflow task.
    if (this.#query !== null) {
      this.#query.refusal ??= error;
      return;
    }
    this.#taskFailure ??= { error };
  }

  /**
   * Rejects an API that would not replay identically. The task fails even if the code catches
   * the error, so a violation is never silently different on replay.
   */
  violation(message: string): never {
    const error = new DeterminismViolationError(message);
    this.failTask(error);
    throw error;
  }

  /** Ends the run the way an error escaping workflow code (or a signal handler) demands. */
  handleWorkflowError(error: unknown): void {
    if (error instanceof ContinueAsNew) this.#close({ type: 'ContinueAsNewWorkflowExecution', ...error.command });
    else if (this.cancelRequested && isCancellation(error)) this.#close({ type: 'CancelWorkflowExecution' });
    else if (error instanceof WorkflowFailure) this.#fail(error);
    else this.failTask(error);
  }

  /** Stores the next activation's input (called by the host, outside the deadline). */
  prepare(input: ActivationInput): void {
    this.#input = copyIntoRealm(input);
  }

  /** Applies the prepared jobs in history order. */
  activate(): void {
    const input = this.#input;
    if (input === null) throw new Error('activate() without prepare()');
    this.#input = null;
    this.now = input.timeMs;
    this.isReplaying = input.isReplaying;
    this.task = input.task;
    for (const job of input.jobs) {
      try {
        this.#apply(job);
      } catch (err) {
        this.failTask(err);
      }
    }
  }

  /** Resolves every blocked condition whose predicate now holds; returns how many. */
  unblockConditions(): number {
    let unblocked = 0;
    for (const [seq, condition] of this.conditions) {
      let holds = false;
      try {
        holds = condition.fn();
      } catch (err) {
        this.conditions.delete(seq);
        this.failTask(err);
      }
      if (holds) {
        this.conditions.delete(seq);
        condition.resolve();
        unblocked++;
      }
    }
    return unblocked;
  }

  /** Hands the activation's commands (or task failure) to the host and starts afresh. */
  conclude(): ActivationOutput {
    rejectUnhandledUpdates(this);
    const output: ActivationOutput = {
      commands: this.#commands,
      taskFailure: this.#taskFailure === null ? null : failureInfoFromError(this.#taskFailure.error, this.#encodeOrDrop),
    };
    this.#commands = [];
    this.#taskFailure = null;
    return output;
  }

  /** Forgets pending operations so a disposed run's promises and closures can be collected. */
  dispose(): void {
    this.activities.clear();
    this.timers.clear();
    this.conditions.clear();
    this.children.clear();
    this.signalHandlers.clear();
    this.updateHandlers.clear();
    this.defaultSignalHandler = undefined;
    this.defaultQueryHandler = undefined;
    this.#closed = true;
  }

  /**
   * Enters query mode: until {@link endQuery}, APIs that would change what the run does next
   * (commands, sequence numbers, random draws, closing, failing the task) throw and are remembered.
   */
  beginQuery(queryType: string): void {
    this.#query = { queryType, refusal: null };
  }

  /** Leaves query mode; returns the first refused operation (or error) seen during the query, if any. */
  endQuery(): unknown {
    const refusal = this.#query?.refusal ?? null;
    this.#query = null;
    return refusal;
  }

  /** True when something was refused during the running query. */
  get queryRefused(): boolean {
    return this.#query !== null && this.#query.refusal !== null;
  }

  #refuseInQuery(action: string): void {
    const query = this.#query;
    if (query === null) return;
    const error = new IllegalStateError(
      `query handler '${query.queryType}' tried to ${action}: query handlers must only read the workflow's state ` +
        '(no activities, timers, conditions, commands or random numbers)',
    );
    query.refusal ??= error;
    throw error;
  }

  /** Runs a signal handler in the root scope; its failure is handled like the workflow's. */
  invokeSignalHandler(handler: SignalHandler, args: unknown[]): void {
    this.trackHandler(this.rootScope.run(async () => handler(...args))).catch((err: unknown) => this.handleWorkflowError(err));
  }

  /** Counts a signal or update handler as running until `settles` does (`allHandlersFinished`). */
  trackHandler<T>(settles: Promise<T>): Promise<T> {
    this.runningHandlers++;
    return settles.finally(() => void this.runningHandlers--);
  }

  #apply(job: ActivationJob): void {
    switch (job.type) {
      case 'startWorkflow':
        return this.#start(job.workflowType, job.args);
      case 'resolveActivity': {
        const pending = this.activities.get(job.seq);
        // Absent when the workflow already cancelled it (the result arrived anyway).
        if (pending === undefined) return;
        this.activities.delete(job.seq);
        const r = job.resolution;
        if (r.kind === 'completed') return pending.resolve(r.value);
        const cause = errorFromFailureInfo(r.failure);
        const message = `activity ${pending.activityType} (id ${job.seq}) failed: ${cause.message}`;
        return pending.reject(new ActivityFailure(message, pending.activityType, String(job.seq), r.retryState, cause));
      }
      case 'fireTimer': {
        const pending = this.timers.get(job.seq);
        if (pending === undefined) return;
        this.timers.delete(job.seq);
        return pending.resolve(undefined);
      }
      case 'signal': {
        const handler = this.signalHandlers.get(job.signalName);
        const fallback = this.defaultSignalHandler;
        if (handler !== undefined) this.invokeSignalHandler(handler, job.args);
        else if (fallback !== undefined) this.invokeSignalHandler((...args) => fallback(job.signalName, ...args), job.args);
        else this.bufferedSignals.push({ signalName: job.signalName, args: job.args });
        return;
      }
      case 'resolveExternal': {
        const pending = this.externals.get(job.seq);
        if (pending === undefined) return;
        this.externals.delete(job.seq);
        return job.failureCause === null ? pending.resolve(undefined) : pending.reject(externalFailure(job.failureCause));
      }
      case 'resolveChildStart':
        return resolveChildStart(this, job.seq, job.runId, job.failureCause);
      case 'resolveChild':
        return resolveChild(this, job.seq, job.resolution);
      case 'cancelWorkflow':
        this.cancelRequested = true;
        return this.rootScope.cancel('Workflow cancelled');
      case 'notifyHasPatch':
        this.knownPresentPatches.add(job.patchId);
        return;
      case 'resolveSideEffect':
        this.recordedSideEffects.set(job.seq, job.value);
        return;
      case 'resolveLocalActivity':
        return resolveLocalActivity(this, job);
      case 'update':
        return deliverUpdate(this, job);
    }
  }

  #start(workflowType: string, args: unknown[]): void {
    const fn = this.workflows.get(workflowType);
    if (fn === undefined) {
      const known = [...this.workflows.keys()].join(', ');
      const error = new Error(`workflow type ${workflowType} is not exported by the workflow bundle (exported: ${known})`);
      error.name = 'UnknownWorkflowType';
      return this.failTask(error);
    }
    this.rootScope.run(async () => fn(...args)).then(
      (result) => this.#complete(result),
      (err: unknown) => this.handleWorkflowError(err),
    );
  }

  #complete(result: unknown): void {
    try {
      this.#close({ type: 'CompleteWorkflowExecution', result: this.host.encode(result) });
    } catch (err) {
      this.failTask(err);
    }
  }

  #fail(error: WorkflowFailure): void {
    try {
      this.#close({ type: 'FailWorkflowExecution', failure: failureInfoFromError(error, this.host.encode) });
    } catch (err) {
      // Details the data converter cannot encode: a bug to fix, so the task fails and says why.
      this.failTask(err);
    }
  }

  // A task failure must be reported even if its details cannot be encoded: drop them then.
  readonly #encodeOrDrop = (value: unknown): unknown => {
    try {
      return this.host.encode(value);
    } catch {
      return null;
    }
  };

  #close(command: SandboxCommand): void {
    // Workflow code resumed by a query handler must not close the run from inside the query.
    if (this.#query !== null) {
      this.#query.refusal ??= new IllegalStateError(`the workflow tried to close during query '${this.#query.queryType}'`);
      return;
    }
    if (this.#closed) return;
    this.#commands.push(command);
    this.#closed = true;
  }
}
