/**
 * `startChild` and `executeChild` (Temporal's child workflows). Each call issues
 * `StartChildWorkflowExecution` under the next `child` sequence number; the engine answers with
 * `ChildWorkflowExecutionStarted` (the start promise resolves with a handle) or
 * `StartChildWorkflowExecutionFailed` (it rejects with {@link WorkflowExecutionAlreadyStartedError}),
 * then with the child's closing event (the handle's `result()` settles).
 *
 * Cancelling the scope the child was started in asks the child to cancel
 * (`RequestCancelExternalWorkflowExecution` with `childWorkflowOnly`, under an `external` sequence
 * number) as its {@link ChildWorkflowCancellationType} says.
 * @module
 */
import type { Activator } from './activator.js';
import type { ChildResolution, StartChildOptions } from './bridge.js';
import { toRetryPolicy, type RetryOptions } from './activities.js';
import { CancellationScope } from './cancellation-scope.js';
import { currentActivator } from './current-activator.js';
import { optionalDurationToMs, type Duration } from './duration.js';
import { ChildWorkflowFailure, WorkflowExecutionAlreadyStartedError, type CancelledFailure } from './errors.js';
import { sendExternal } from './external-workflows.js';
import { errorFromFailureInfo } from './failure-info.js';
import { uuid4From } from './prng.js';
import type { SignalDefinition } from './signals.js';
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';

/** What happens to a child when its parent run closes (Temporal's `ParentClosePolicy`). */
export const ParentClosePolicy = {
  /** The child is terminated (the default). */
  TERMINATE: 'TERMINATE',
  /** The child is asked to cancel; its code decides. */
  REQUEST_CANCEL: 'REQUEST_CANCEL',
  /** The child runs on. */
  ABANDON: 'ABANDON',
} as const;
/** @see ParentClosePolicy */
export type ParentClosePolicy = (typeof ParentClosePolicy)[keyof typeof ParentClosePolicy];

/** What cancelling a child's scope does (Temporal's `ChildWorkflowCancellationType`). */
export const ChildWorkflowCancellationType = {
  /** Do not ask the child to cancel; the parent's promise rejects at once. */
  ABANDON: 'ABANDON',
  /** Ask the child to cancel; the parent's promise rejects at once. */
  TRY_CANCEL: 'TRY_CANCEL',
  /** Ask the child to cancel; the parent's promise settles when the child ends (the default). */
  WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
  /** Ask the child to cancel; the parent's promise rejects once the child recorded the request. */
  WAIT_CANCELLATION_REQUESTED: 'WAIT_CANCELLATION_REQUESTED',
} as const;
/** @see ChildWorkflowCancellationType */
export type ChildWorkflowCancellationType = (typeof ChildWorkflowCancellationType)[keyof typeof ChildWorkflowCancellationType];

/** A workflow function, for typing a child's arguments and result. */
export type ChildWorkflowFunction = (...args: never[]) => unknown;
/** A child started by type name without a type argument: any arguments, an unknown result. */
type UntypedChild = (...args: unknown[]) => unknown;

/** Options of {@link startChild} / {@link executeChild}. Durations: ms or `'10s'`. */
export interface ChildWorkflowOptions<Args extends unknown[] = unknown[]> {
  /** Default: a UUID drawn from the run's seeded PRNG (the same on replay). */
  workflowId?: string;
  args?: Args;
  /** Default: the parent's task queue. */
  taskQueue?: string;
  /** Default {@link ParentClosePolicy.TERMINATE}. */
  parentClosePolicy?: ParentClosePolicy;
  /** Default {@link ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED}. */
  cancellationType?: ChildWorkflowCancellationType;
  workflowExecutionTimeout?: Duration;
  workflowRunTimeout?: Duration;
  workflowTaskTimeout?: Duration;
  /** The child's workflow retry policy: a failed run of the child is retried as a new run (see the README's workflow retry policy). */
  retry?: RetryOptions;
  /** Makes the child a cron workflow (UTC cron expression); the parent hears from the child when its chain ends. */
  cronSchedule?: string;
  /** Values encoded with the data converter; the child reads them as `workflowInfo().memo`. */
  memo?: Record<string, unknown>;
  searchAttributes?: SearchAttributes;
}

/** A started child (Temporal's `ChildWorkflowHandle`). */
export interface ChildWorkflowHandle<F extends ChildWorkflowFunction = ChildWorkflowFunction> {
  readonly workflowId: string;
  /** The child's first run (the chain's, if it continues as new). */
  readonly firstExecutionRunId: string;
  /**
   * The child's result (of the last run of its chain). Rejects with a {@link ChildWorkflowFailure}
   * whose `cause` says how the child ended.
   */
  result(): Promise<Awaited<ReturnType<F>>>;
  /** Signals the child; resolves once the child recorded it. */
  signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void>;
}

/** A child awaiting the engine's answers, as the activator settles it. */
export interface PendingChild {
  started(runId: string): void;
  startFailed(cause: string): void;
  resolved(resolution: ChildResolution): void;
}

const closePolicies: Record<ParentClosePolicy, StartChildOptions['parentClosePolicy']> = {
  TERMINATE: 'Terminate', REQUEST_CANCEL: 'RequestCancel', ABANDON: 'Abandon',
};

function toStartOptions(activator: Activator, workflowType: string, options: ChildWorkflowOptions): StartChildOptions {
  const policy = options.parentClosePolicy ?? 'TERMINATE';
  if (!(policy in closePolicies)) throw new TypeError(`startChild: unknown parentClosePolicy ${String(policy)}`);
  const memo: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options.memo ?? {})) memo[key] = activator.host.encode(value);
  return {
    workflowId: options.workflowId ?? uuid4From(activator.random),
    workflowType,
    taskQueue: options.taskQueue ?? null,
    args: (options.args ?? []).map((arg) => activator.host.encode(arg)),
    workflowExecutionTimeoutMs: optionalDurationToMs(options.workflowExecutionTimeout, 'workflowExecutionTimeout'),
    workflowRunTimeoutMs: optionalDurationToMs(options.workflowRunTimeout, 'workflowRunTimeout'),
    workflowTaskTimeoutMs: optionalDurationToMs(options.workflowTaskTimeout, 'workflowTaskTimeout'),
    parentClosePolicy: closePolicies[policy],
    retryPolicy: options.retry === undefined ? null : toRetryPolicy(options.retry),
    cronSchedule: options.cronSchedule ?? null,
    memo,
    searchAttributes: { ...(options.searchAttributes ?? {}) },
  };
}

/**
 * Starts a child workflow and resolves once it started (its `ChildWorkflowExecutionStarted` is
 * recorded). Rejects with {@link WorkflowExecutionAlreadyStartedError} when its workflow id is taken.
 * @example
 * const child = await startChild(invoice, { workflowId: `invoice-${orderId}`, args: [orderId] });
 * const total = await child.result();
 */
export function startChild<F extends ChildWorkflowFunction>(workflow: F, options?: ChildWorkflowOptions<Parameters<F>>): Promise<ChildWorkflowHandle<F>>;
/** By workflow type name; type the child with `startChild<typeof invoice>('invoice', …)`. */
export function startChild<F extends ChildWorkflowFunction = UntypedChild>(workflowType: string, options?: ChildWorkflowOptions<Parameters<F>>): Promise<ChildWorkflowHandle<F>>;
export function startChild<F extends ChildWorkflowFunction>(
  workflow: F | string,
  options: ChildWorkflowOptions<Parameters<F>> = {},
): Promise<ChildWorkflowHandle<F>> {
  const activator = currentActivator('startChild');
  const scope = CancellationScope.current();
  if (scope.reason !== null) return handled(Promise.reject(scope.reason));
  const workflowType = typeof workflow === 'string' ? workflow : workflow.name;
  let start: StartChildOptions;
  try {
    start = toStartOptions(activator, workflowType, options as ChildWorkflowOptions);
  } catch (err) {
    return handled(Promise.reject(err));
  }
  const seq = activator.nextSeq('child');
  const cancellationType = options.cancellationType ?? 'WAIT_CANCELLATION_COMPLETED';
  const { workflowId } = start;
  let runId: string | null = null;
  let settleResult: { resolve(value: unknown): void; reject(error: unknown): void } = { resolve: noop, reject: noop };
  const result = handled(new Promise<unknown>((resolve, reject) => (settleResult = { resolve, reject })));
  const failure = (cause: unknown, retryState: string | null, endedRunId: string | null) =>
    new ChildWorkflowFailure(activator.info.namespace, { workflowId, runId: endedRunId ?? runId ?? '' }, workflowType, retryState, cause);

  const handle: ChildWorkflowHandle<F> = {
    workflowId,
    get firstExecutionRunId() {
      return runId ?? '';
    },
    result: () => result as Promise<Awaited<ReturnType<F>>>,
    signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void> {
      const current = currentActivator('ChildWorkflowHandle.signal');
      const signalName = typeof def === 'string' ? def : def.name;
      const encoded = args.map((arg) => current.host.encode(arg));
      return sendExternal(current, (s) => ({ type: 'SignalExternalWorkflowExecution', seq: s, workflowId, runId: null, signalName, args: encoded, childWorkflowOnly: true }));
    },
  };

  return handled(new Promise<ChildWorkflowHandle<F>>((resolveStart, rejectStart) => {
    const done = () => {
      activator.children.delete(seq);
      unsubscribe();
    };
    const settleCancelled = (why: CancelledFailure) => {
      done();
      if (runId === null) rejectStart(why);
      settleResult.reject(failure(why, 'CancelRequested', null));
    };
    const unsubscribe = scope.onCancel((why) => {
      if (!activator.children.has(seq)) return;
      if (activator.dropUnsentCommand('StartChildWorkflowExecution', seq)) {
        done();
        rejectStart(why);
        return;
      }
      if (cancellationType !== 'ABANDON') {
        const requested = sendExternal(activator, (s) => ({ type: 'RequestCancelExternalWorkflowExecution', seq: s, workflowId, runId: null, childWorkflowOnly: true }));
        if (cancellationType === 'WAIT_CANCELLATION_REQUESTED') requested.then(() => activator.children.has(seq) && settleCancelled(why), noop);
      }
      if (cancellationType === 'ABANDON' || cancellationType === 'TRY_CANCEL') settleCancelled(why);
    });
    activator.children.set(seq, {
      started(id) {
        runId = id;
        resolveStart(handle);
      },
      startFailed(cause) {
        done();
        rejectStart(new WorkflowExecutionAlreadyStartedError(`child workflow ${workflowId} (${workflowType}) could not start: ${cause}`, workflowId, workflowType));
      },
      resolved(resolution) {
        done();
        if (resolution.kind === 'completed') settleResult.resolve(resolution.value);
        else settleResult.reject(failure(errorFromFailureInfo(resolution.failure), resolution.retryState, resolution.runId));
      },
    });
    activator.pushCommand({ type: 'StartChildWorkflowExecution', seq, options: start });
  }));
}

/**
 * Starts a child workflow and waits for its result (`startChild` + `result()`).
 * @example
 * const total = await executeChild(invoice, { args: [orderId], parentClosePolicy: 'ABANDON' });
 */
export function executeChild<F extends ChildWorkflowFunction>(workflow: F, options?: ChildWorkflowOptions<Parameters<F>>): Promise<Awaited<ReturnType<F>>>;
/** By workflow type name; type the child with `executeChild<typeof invoice>('invoice', …)`. */
export function executeChild<F extends ChildWorkflowFunction = UntypedChild>(workflowType: string, options?: ChildWorkflowOptions<Parameters<F>>): Promise<Awaited<ReturnType<F>>>;
export async function executeChild<F extends ChildWorkflowFunction>(
  workflow: F | string,
  options: ChildWorkflowOptions<Parameters<F>> = {},
): Promise<Awaited<ReturnType<F>>> {
  const child = await startChild<F>(workflow as F, options);
  return child.result();
}

/** Applies the engine's answer about child `seq` (absent when the workflow no longer waits for it). */
export function resolveChildStart(activator: Activator, seq: number, runId: string | null, failureCause: string | null): void {
  const pending = activator.children.get(seq);
  if (pending === undefined) return;
  if (failureCause === null) pending.started(runId ?? '');
  else pending.startFailed(failureCause);
}

/** Applies how child `seq` ended (absent when the workflow no longer waits for it). */
export function resolveChild(activator: Activator, seq: number, resolution: ChildResolution): void {
  activator.children.get(seq)?.resolved(resolution);
}

// See `operations.ts`: a rejection before the workflow awaits the promise is not "unhandled".
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(noop);
  return promise;
}

function noop(): void {}
