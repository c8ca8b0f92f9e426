/**
 * The only contract between the worker (host) and the workflow sandbox: what the host installs in
 * a run's context before the workflow bundle is evaluated ({@link HostBridge}), what the bundled
 * runtime installs in return ({@link SandboxRuntime}), and the shapes that cross between them.
 *
 * Values cross as plain data. Payloads are opaque to the sandbox: workflow code hands values to
 * {@link HostBridge.encode} at the call site and puts the result in commands; the host decodes
 * incoming payloads and the runtime copies the values into its own realm.
 * @module
 */
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';

/** Global under which the host installs the {@link HostBridge} (removed once the runtime read it). */
export const HOST_BRIDGE_GLOBAL = '__logbookHost';
/**
 * Global under which a compiled bundle, run in a context, leaves the function that evaluates the
 * bundle for one run (the user's modules afresh; see `sandbox.ts`).
 */
export const RUN_FACTORY_GLOBAL = '__logbookEvaluateRun';
/**
 * Global (non-writable) under which a compiled bundle, run in a context, leaves the runtime it
 * evaluated once for every run of the context (`SharedRuntime` in `runtime-entry.ts`).
 */
export const SHARED_RUNTIME_GLOBAL = '__logbookSharedRuntime';
/** Global under which the bundled runtime installs the {@link SandboxRuntime} (of the run evaluated last; the host keeps each run's). */
export const SANDBOX_RUNTIME_GLOBAL = '__logbookWorkflow';
/** Global (non-enumerable) under which the runtime keeps the current run's activator. */
export const ACTIVATOR_GLOBAL = '__logbookActivator';
/**
 * Global (non-enumerable) under which the runtime records the globals it installed in a context,
 * name → the value installed: the host tells them from a run's own globals by it, and puts back
 * one that a run replaced before another run goes on.
 */
export const INSTALLED_GLOBALS_GLOBAL = '__logbookGlobalsInstalled';

/** Facts about the run, readable through `workflowInfo()`. */
export interface WorkflowRunInfo {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  /** 1 for the first attempt; higher when a workflow retry policy started this run. */
  attempt: number;
  /** Epoch ms of `WorkflowExecutionStarted`. */
  startTimeMs: number;
  /** The first run of this run's continue-as-new chain (its own id for a first run). */
  firstExecutionRunId: string;
  /** The run this one continues, or null for a first run. */
  continuedFromExecutionRunId: string | null;
  /** The memo given at start, decoded (host values: copy them into the sandbox's realm before use). */
  memo: Record<string, unknown>;
  /** The search attributes the run started with (typed; host values, as `memo`); unset for none. */
  searchAttributes?: SearchAttributes;
  /** A cron run: the result of the chain's last completed run, decoded; undefined if none. */
  lastResult?: unknown;
  /** A retry or cron run: the failure of the run before it; null or undefined if none. */
  lastFailure?: { message: string; type: string } | null;
  /** The run that started this one as its child (unset or null for a workflow started by a client). */
  parent?: { namespace: string; workflowId: string; runId: string } | null;
}

/** What the engine said about the history when it sent the workflow task (its WorkflowTaskStarted). */
export interface WorkflowTaskFacts {
  /** Events in the history, up to the task's WorkflowTaskStarted. */
  historyLength: number;
  /** Estimated size of the history before WorkflowTaskStarted, in bytes. */
  historySizeBytes: number;
  /** The history passed the engine's suggestion limits: continue as new soon. */
  continueAsNewSuggested: boolean;
}

/** Log levels forwarded by the sandbox's `console` and the workflow `log`. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** The part of `AsyncLocalStorage` the runtime uses (cancellation scopes follow `await`). */
export interface AsyncLocalStorageLike<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

/** What the host gives the sandbox. Everything here is deterministic given the history. */
export interface HostBridge {
  readonly info: WorkflowRunInfo;
  /** Seed of `Math.random` / `uuid4` (`WorkflowExecutionStarted.prngSeed`). */
  readonly prngSeed: number;
  /** Encodes a value with the worker's data converter; the sandbox treats the result as opaque. */
  encode(value: unknown): unknown;
  /** Workflow logging; the host drops it while replaying. */
  log(level: LogLevel, args: unknown[]): void;
  /**
   * An `AsyncLocalStorage` of the host (async context propagates through the sandbox's promises).
   * One instance serves every sandbox: Node 20 visits every enabled instance on each async
   * resource it creates, so one per run would slow the whole process as the cache grows. Runs
   * cannot see each other's stores: a run's code only ever executes in its own activations.
   */
  readonly asyncLocalStorage: AsyncLocalStorageLike<unknown>;
}

/** A failure as plain data (the sandbox's view of `logbook.Failure`, details decoded). */
export interface FailureInfo {
  message: string;
  /** `ApplicationFailure` type, or one of `FailureCode`, or an error name for task failures. */
  code: string;
  stack: string;
  nonRetryable: boolean;
  /** Decoded details (host → sandbox). */
  details: unknown[];
  /**
   * Sandbox → host: the details already encoded with {@link HostBridge.encode} (an opaque payload,
   * `null` for none), so that user `toJSON` code runs inside the sandbox's deadline.
   */
  encodedDetails?: unknown;
  cause: FailureInfo | null;
  /** Only for `TimeoutFailure`. */
  timeoutType?: string | null;
}

/** How an activity ended, as delivered to the workflow. */
export type ActivityResolution =
  | { kind: 'completed'; value: unknown }
  | { kind: 'failed'; failure: FailureInfo; retryState: string | null };

/**
 * How a local activity ended within a workflow task: like an activity, or `backoff` — the worker
 * stopped retrying within the task; the workflow waits `backoffMs` (a durable timer) and runs
 * attempt `nextAttempt` (see `local-activities.ts`).
 */
export type LocalActivityResolution = ActivityResolution | { kind: 'backoff'; failure: FailureInfo; nextAttempt: number; backoffMs: number };
/** How a child workflow ended, as delivered to its parent. */
export type ChildResolution =
  | { kind: 'completed'; value: unknown }
  /** Failed, canceled, terminated or timed out: `failure` is the cause the parent's ChildWorkflowFailure carries. */
  | { kind: 'failed'; failure: FailureInfo; retryState: string | null; runId: string | null };

/** One thing that happened to the run since the last activation. */
export type ActivationJob =
  | { type: 'startWorkflow'; workflowType: string; args: unknown[] }
  | { type: 'resolveActivity'; seq: number; resolution: ActivityResolution }
  | { type: 'fireTimer'; seq: number }
  | { type: 'signal'; signalName: string; args: unknown[] }
  | { type: 'cancelWorkflow'; reason: string }
  /** The signal or cancellation request `seq` sent to another workflow reached it (cause null) or not. */
  | { type: 'resolveExternal'; seq: number; failureCause: string | null }
  /** Child `seq` started as `runId`, or could not start (`failureCause`, e.g. WorkflowAlreadyExists). */
  | { type: 'resolveChildStart'; seq: number; runId: string | null; failureCause: string | null }
  /** Child `seq` ended. */
  | { type: 'resolveChild'; seq: number; resolution: ChildResolution }
  /** Replay only: the task being replayed recorded this patch marker, so `patched(patchId)` is true. */
  | { type: 'notifyHasPatch'; patchId: string }
  /** Replay only: the value `sideEffect` number `seq` recorded in the task being replayed (decoded). */
  | { type: 'resolveSideEffect'; seq: number; value: unknown }
  /** Local activity `seq` ended (run by the worker in this task, or recorded in the task being replayed). */
  | { type: 'resolveLocalActivity'; seq: number; resolution: LocalActivityResolution }
  /** An update (see `updates.ts`); the validator runs only for a live delivery, not for one replayed from its accepted event. */
  | UpdateJob;

/** An update delivered to the run: its arguments decoded. */
export interface UpdateJob {
  type: 'update';
  updateId: string;
  name: string;
  args: unknown[];
  runValidator: boolean;
}

/** Input of one activation: the workflow's "now", the task's history facts and the jobs, in history order. */
export interface ActivationInput {
  timeMs: number;
  isReplaying: boolean;
  task: WorkflowTaskFacts;
  jobs: ActivationJob[];
}

/** Activity options with durations in ms, as recorded in `ScheduleActivityTask`. */
export interface ScheduleActivityOptions {
  taskQueue: string | null;
  scheduleToCloseTimeoutMs: number | null;
  scheduleToStartTimeoutMs: number | null;
  startToCloseTimeoutMs: number | null;
  heartbeatTimeoutMs: number | null;
  retryPolicy: {
    initialIntervalMs: number;
    backoffCoefficient: number;
    maximumIntervalMs: number | null;
    maximumAttempts: number;
    nonRetryableErrorTypes: string[];
  } | null;
}

/** A local activity's options with durations in ms, and the attempt to run (a retry after a timer starts above 1). */
export interface LocalActivityRequestOptions {
  startToCloseTimeoutMs: number | null;
  scheduleToCloseTimeoutMs: number | null;
  retryPolicy: ScheduleActivityOptions['retryPolicy'];
  attempt: number;
  /** Workflow time of the first attempt's scheduling (schedule-to-close counts from it). */
  originalScheduleTimeMs: number;
}

/** What `StartChildWorkflowExecution` records, as the sandbox produces it. */
export interface StartChildOptions {
  workflowId: string;
  workflowType: string;
  taskQueue: string | null;
  args: unknown[];
  workflowExecutionTimeoutMs: number | null;
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number | null;
  parentClosePolicy: 'Terminate' | 'RequestCancel' | 'Abandon';
  retryPolicy: ScheduleActivityOptions['retryPolicy'];
  cronSchedule: string | null;
  memo: Record<string, unknown>;
  searchAttributes: SearchAttributes;
}

/**
 * A command as the sandbox produces it: keyed by sequence number (activity id and timer id are
 * the sequence as a string); the host turns it into a `WorkflowCommand`.
 */
export type SandboxCommand =
  /** `args` are encoded payloads (opaque results of {@link HostBridge.encode}). */
  | { type: 'ScheduleActivityTask'; seq: number; activityType: string; args: unknown[]; options: ScheduleActivityOptions }
  | { type: 'RequestCancelActivityTask'; seq: number }
  | { type: 'StartTimer'; seq: number; ms: number }
  | { type: 'CancelTimer'; seq: number }
  /** `getExternalWorkflowHandle(…).signal` (or a child handle's, `childWorkflowOnly`); `args` are encoded payloads. */
  | { type: 'SignalExternalWorkflowExecution'; seq: number; workflowId: string; runId: string | null; signalName: string; args: unknown[]; childWorkflowOnly?: boolean }
  /** `getExternalWorkflowHandle(…).cancel` (or the cancellation of a child, `childWorkflowOnly`). */
  | { type: 'RequestCancelExternalWorkflowExecution'; seq: number; workflowId: string; runId: string | null; childWorkflowOnly?: boolean }
  /** `startChild`; `args` and memo values are encoded payloads; null = the parent's task queue, no timeout, no retries. */
  | { type: 'StartChildWorkflowExecution'; seq: number; options: StartChildOptions }
  /** `result` is an encoded payload. */
  | { type: 'CompleteWorkflowExecution'; result: unknown }
  | { type: 'FailWorkflowExecution'; failure: FailureInfo }
  | { type: 'CancelWorkflowExecution' }
  | { type: 'UpsertWorkflowSearchAttributes'; searchAttributes: SearchAttributes }
  /** `upsertMemo`; the values are encoded payloads. */
  | { type: 'ModifyWorkflowProperties'; upsertedMemo: Record<string, unknown> }
  /** `patched` / `deprecatePatch`: the host records it as the SDK's patch marker. */
  | { type: 'SetPatchMarker'; patchId: string; deprecated: boolean }
  /** Run local activity `seq` in the worker during this task (never sent to the engine; its outcome is recorded as a marker). */
  | { type: 'ScheduleLocalActivity'; seq: number; activityType: string; args: unknown[]; options: LocalActivityRequestOptions }
  /** Update protocol messages (see `updates.ts`); `result` is an encoded payload. */
  | { type: 'UpdateAcceptance'; updateId: string }
  | { type: 'UpdateRejection'; updateId: string; failure: FailureInfo }
  | { type: 'UpdateResponse'; updateId: string; result: unknown; failure: FailureInfo | null }
  /** `sideEffect` number `seq` (1, 2, …); `value` is an encoded payload. */
  | { type: 'SideEffectMarker'; seq: number; value: unknown }
  /** `args` are encoded payloads; null timeouts and task queue = the current run's. */
  | {
      type: 'ContinueAsNewWorkflowExecution';
      workflowType: string;
      taskQueue: string | null;
      args: unknown[];
      workflowRunTimeoutMs: number | null;
      workflowTaskTimeoutMs: number | null;
    };

/** What an activation produced: commands, or the failure of the workflow task. */
export interface ActivationOutput {
  commands: SandboxCommand[];
  /** Set when the task must fail (a non-`WorkflowFailure` error, a determinism violation…). */
  taskFailure: FailureInfo | null;
}

/** A query to answer from the run's current state: the handler's name and its decoded arguments. */
export interface QueryInput {
  queryType: string;
  args: unknown[];
}

/** A query's answer: the result encoded with {@link HostBridge.encode}, or why the query failed. */
export type QueryOutput = { result: unknown; failure: null } | { result: null; failure: FailureInfo };

/** What the bundled runtime offers the host (installed as {@link SANDBOX_RUNTIME_GLOBAL}). */
export interface SandboxRuntime {
  /** Makes this run the context's current one (the shared globals and SDK functions act for it). */
  enter(): void;
  /** Exported workflow function names. */
  workflowTypes(): string[];
  /** Stores the next activation's input; the host then runs `activate()` under its deadline. */
  prepare(input: ActivationInput): void;
  /** Applies the prepared jobs (runs workflow code; microtasks drain after it). */
  activate(): void;
  /** Resolves the conditions that became true; returns how many (0 means the run is blocked). */
  unblockConditions(): number;
  /** True while some `condition` waits (only then must the host run the condition loop). */
  hasBlockedConditions(): boolean;
  /** True when the activation failed the task (describing the error may run user code). */
  hasTaskFailure(): boolean;
  /** Returns the commands of the activation and starts a new one. */
  conclude(): ActivationOutput;
  /** Drops the run's pending state (the host is done with it). */
  dispose(): void;
  /** Stores the next query and enters query mode (see `queries.ts`); the host then runs `query()`. */
  prepareQuery(input: QueryInput): void;
  /** Runs the prepared query's handler (under the host's deadline; microtasks drain after it). */
  query(): void;
  /** True when the query failed (describing the error may run user code). */
  hasQueryFailure(): boolean;
  /** Leaves query mode and returns the answer. */
  concludeQuery(): QueryOutput;
}
