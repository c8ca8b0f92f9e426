/**
 * The workflow API: what workflow code imports. Modelled on Temporal's `@temporalio/workflow`.
 *
 * Workflow code is bundled with this module and runs in a per-run deterministic sandbox (a
 * `node:vm` context): `Date`, `Math.random` and `setTimeout` are deterministic there, Node APIs
 * are absent, and a synchronous loop longer than the deadlock timeout fails the workflow task.
 * Each call below issues a command (`ScheduleActivityTask`, `StartTimer`, …) that the engine
 * records in history; on replay the recorded results are returned instead of doing the work again.
 *
 * Rules: never import Node modules or activity implementations here (import activity *types* with
 * `import type`); keep non-determinism in activities.
 *
 * @example
 * import { proxyActivities, sleep, defineQuery, defineSignal, setHandler, condition } from '../../sdk/workflow/index.js';
 * import type * as activities from './activities.js';
 *
 * const { reserveStock, charge, ship } = proxyActivities<typeof activities>({
 *   startToCloseTimeout: '30s',
 *   retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['PaymentDeclined'] },
 * });
 * export const sellerPacked = defineSignal<[parcelId: string]>('sellerPacked');
 * export const parcelQuery = defineQuery<string | undefined>('parcel');
 *
 * export async function order(input: { orderId: string }): Promise<string> {
 *   let parcel: string | undefined;
 *   setHandler(sellerPacked, (id) => void (parcel = id));
 *   setHandler(parcelQuery, () => parcel);
 *   await reserveStock(input.orderId);
 *   await charge(input.orderId);
 *   if (!(await condition(() => parcel !== undefined, '48h'))) return 'seller timed out';
 *   await sleep('1m');
 *   return ship(input.orderId, parcel!);
 * }
 * @module
 */
import { mergeSearchAttributes } from '../../topics/schemas/common/search-attribute-merge.js';
import { typedSearchAttributes, untypedSearchAttributes, type SearchAttributeInput } from '../common/search-attribute-values.js';
import { searchAttributesOfPairs, TypedSearchAttributes, type SearchAttributePair } from '../common/typed-search-attributes.js';
import { proxyActivities as proxyActivitiesImpl, type ActivityInterfaceFor, type ActivityOptions } from './activities.js';
import { currentActivator } from './current-activator.js';
import type { Duration } from './duration.js';
import { uuid4From } from './prng.js';
import { copyIntoRealm } from './realm-copy.js';
import { defineQuery as defineQueryImpl, setQueryHandler, type QueryDefinition } from './queries.js';
import { defineSignal as defineSignalImpl, setHandler as setHandlerImpl, type SignalDefinition } from './signals.js';
import { setUpdateHandler, type UpdateDefinition, type UpdateHandlerOptions } from './updates.js';
import { condition as conditionImpl, sleep as sleepImpl } from './timers.js';

export type { ActivityInterfaceFor, ActivityOptions, RetryOptions } from './activities.js';
export { ActivityCancellationType } from './activities.js';
export { CancellationScope, inWorkflowContext, type CancellationScopeOptions } from './cancellation-scope.js';
export type { Duration } from './duration.js';
export {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  DeterminismViolationError,
  FailureCode,
  IllegalStateError,
  isCancellation,
  TimeoutFailure,
  WorkflowFailure,
  type ApplicationFailureOptions,
  type TimeoutType,
} from './errors.js';
export type { QueryDefinition } from './queries.js';
export type { SignalDefinition } from './signals.js';
export { defineUpdate, type UpdateDefinition, type UpdateHandlerOptions } from './updates.js';
export { deprecatePatch, patched } from './patching.js';
export { sideEffect } from './side-effect.js';
export { Trigger } from './trigger.js';
export { setDefaultSignalHandler } from './signals.js';
export { setDefaultQueryHandler } from './queries.js';
export { describeFailure, REQUIRES_INTERVENTION, Saga, type CompensationFailure, type CompensationReport, type SagaOptions } from './saga.js';
export { ContinueAsNew, continueAsNew, makeContinueAsNewFunc, type ContinueAsNewOptions } from './continue-as-new.js';
export { getExternalWorkflowHandle, type ExternalWorkflowHandle } from './external-workflows.js';
export { proxyLocalActivities, type LocalActivityOptions } from './local-activities.js';
export { log, type LogAttributes } from './log.js';
export { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes, type SearchAttributeKey, type SearchAttributePair } from '../common/typed-search-attributes.js';
export {
  ChildWorkflowCancellationType,
  executeChild,
  ParentClosePolicy,
  startChild,
  type ChildWorkflowFunction,
  type ChildWorkflowHandle,
  type ChildWorkflowOptions,
} from './child-workflows.js';
export { ChildWorkflowFailure, TerminatedFailure, WorkflowExecutionAlreadyStartedError, type ChildWorkflowExecution } from './errors.js';

/**
 * Typed stubs for activities: each call schedules the activity (`ScheduleActivityTask`, activity
 * id = the activity sequence number, "1", "2", …) and resolves with its result, or rejects with an
 * {@link ActivityFailure} whose `cause` says why (an `ApplicationFailure`, a `TimeoutFailure`, a
 * `CancelledFailure`). Safe to call at module level; calls must happen inside a workflow.
 *
 * @param options timeouts (ms or `'10s'`; `startToCloseTimeout` or `scheduleToCloseTimeout` is
 *   required), retry policy and task queue shared by the returned stubs
 * @throws TypeError for missing timeouts or malformed durations
 * @example
 * const { charge } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
 * const receipt = await charge(orderId, amount);
 */
export function proxyActivities<A extends object = Record<string, (...args: never[]) => unknown>>(
  options: ActivityOptions,
): ActivityInterfaceFor<A> {
  return proxyActivitiesImpl<A>(options);
}

/**
 * Waits durably (`StartTimer` / `TimerFired`): the run holds no worker while it sleeps and the
 * wait survives restarts. Rejects with a {@link CancelledFailure} if its scope is cancelled.
 * @param duration ms or a string such as `'10s'`, `'48h'` (at least 1 ms)
 * @example
 * await sleep('2 days');
 */
export function sleep(duration: Duration): Promise<void> {
  return sleepImpl(duration);
}

/**
 * Waits until `fn()` returns true, re-checked whenever the workflow's state may have changed
 * (signals, results, timers). With a `timeout`, resolves `false` if it elapsed first (a durable
 * timer, cancelled when the condition wins). `fn` must be synchronous and side-effect free.
 * @example
 * const approved = await condition(() => state.approved, '24h');
 */
export function condition(fn: () => boolean, timeout?: Duration): Promise<boolean> {
  return conditionImpl(fn, timeout);
}

/**
 * Names a signal. Call at module level and export it so clients can use the same definition.
 * @example
 * export const addGuests = defineSignal<[count: number]>('addGuests');
 */
export function defineSignal<Args extends unknown[] = [], Name extends string = string>(
  name: Name,
): SignalDefinition<Args, Name> {
  return defineSignalImpl<Args, Name>(name);
}

/**
 * Names a query returning `Ret`. Call at module level and export it so clients can use the same
 * definition (`handle.query(definition, ...args)`).
 * @example
 * export const statusQuery = defineQuery<{ stage: string; items: number }>('status');
 * export const itemQuery = defineQuery<string | undefined, [index: number]>('item');
 */
export function defineQuery<Ret = unknown, Args extends unknown[] = [], Name extends string = string>(
  name: Name,
): QueryDefinition<Ret, Args, Name> {
  return defineQueryImpl<Ret, Args, Name>(name);
}

/**
 * Handles a signal or a query (`undefined` removes the handler).
 *
 * Signals received before a handler is set are buffered and delivered, in order, as soon as it is
 * set. A signal handler that throws a {@link WorkflowFailure} fails the run; any other error fails
 * the workflow task.
 *
 * A query handler answers from the workflow's current state and must not change it: it is
 * synchronous, and scheduling an activity, starting a timer, waiting on a condition or drawing a
 * random number inside it throws and fails the query (never the workflow). Nothing a query does
 * is recorded in history. An error it throws fails the query only.
 * @example
 * setHandler(addGuests, (count) => void (guests += count));
 * setHandler(statusQuery, () => ({ stage, items: items.length }));
 */
export function setHandler<Args extends unknown[]>(
  signal: SignalDefinition<Args>,
  handler: ((...args: Args) => void | Promise<void>) | undefined,
): void;
export function setHandler<Ret, Args extends unknown[]>(query: QueryDefinition<Ret, Args>, handler: ((...args: Args) => Ret) | undefined): void;
/** An update handler (see `updates.ts`): may be async and run activities; `validator` rejects an update before it is recorded. */
export function setHandler<Ret, Args extends unknown[]>(
  update: UpdateDefinition<Ret, Args>,
  handler: ((...args: Args) => Ret | Promise<Ret>) | undefined,
  options?: UpdateHandlerOptions<Args>,
): void;
export function setHandler(
  definition: SignalDefinition<never[]> | QueryDefinition<unknown, never[]> | UpdateDefinition<unknown, never[]>,
  handler: ((...args: never[]) => unknown) | undefined,
  options?: UpdateHandlerOptions<never[]>,
): void {
  if (definition.type === 'update') setUpdateHandler(definition, handler, options);
  else if (definition.type === 'query') setQueryHandler(definition, handler);
  else setHandlerImpl(definition, handler as ((...args: never[]) => void) | undefined);
}

/** What {@link workflowInfo} returns. */
export interface WorkflowInfo {
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly namespace: string;
  /** 1 for the first attempt of the run. */
  readonly attempt: number;
  readonly startTime: Date;
  /** The first run of this run's continue-as-new chain (this run's id for a first run). */
  readonly firstExecutionRunId: string;
  /** The run this one continues, or undefined for a first run. */
  readonly continuedFromExecutionRunId: string | undefined;
  /** The run's memo, decoded: the start's (`memo` in the start options), with the run's `upsertMemo` calls merged in; `{}` when none. */
  readonly memo: Record<string, unknown>;
  /** A cron run: the result of the last completed run of its chain (Temporal's `lastResult`); undefined if none. */
  readonly lastResult: unknown;
  /** A retry or cron run: the failure of the run before it (its message and failure type); undefined if none. */
  readonly lastFailure: { readonly message: string; readonly type: string } | undefined;
  /** Events in the history as of the current workflow task (its WorkflowTaskStarted event id). */
  readonly historyLength: number;
  /** Estimated size of the history in bytes as of the current workflow task. */
  readonly historySize: number;
  /**
   * True once the history is long or large enough that the engine suggests continuing as new
   * (10,240 events or 4 MiB by default; the run is terminated past 51,200 events or 50 MiB).
   */
  readonly continueAsNewSuggested: boolean;
  /** The run that started this one as a child workflow; undefined for a workflow started by a client. */
  readonly parent: { readonly workflowId: string; readonly runId: string; readonly namespace: string } | undefined;
  /** The run's search attributes, each as an array of values (Temporal's untyped form; Datetimes as `Date`), with the workflow's own upserts. */
  readonly searchAttributes: Record<string, unknown[]>;
  /** The same, typed, to read by key: `typedSearchAttributes.get(defineSearchAttributeKey('Tier', SearchAttributeType.KEYWORD))`. */
  readonly typedSearchAttributes: TypedSearchAttributes;
}

/**
 * Facts about the current run. The history facts are those of the workflow task being processed,
 * recorded in its WorkflowTaskStarted event, so they are the same on replay.
 * @example
 * if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof poller>(state);
 */
export function workflowInfo(): WorkflowInfo {
  const { info, task, searchAttributes, memo } = currentActivator('workflowInfo');
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    taskQueue: info.taskQueue,
    namespace: info.namespace,
    attempt: info.attempt,
    startTime: new Date(info.startTimeMs),
    firstExecutionRunId: info.firstExecutionRunId,
    continuedFromExecutionRunId: info.continuedFromExecutionRunId ?? undefined,
    // A copy per call, made in the sandbox's realm: the workflow may change it without changing the run's facts.
    memo: copyIntoRealm(memo),
    lastResult: info.lastResult === undefined ? undefined : copyIntoRealm(info.lastResult),
    lastFailure: info.lastFailure ? copyIntoRealm(info.lastFailure) : undefined,
    historyLength: task.historyLength,
    historySize: task.historySizeBytes,
    continueAsNewSuggested: task.continueAsNewSuggested,
    parent: info.parent ? { workflowId: info.parent.workflowId, runId: info.parent.runId, namespace: info.parent.namespace } : undefined,
    searchAttributes: copyIntoRealm(untypedSearchAttributes(searchAttributes)),
    typedSearchAttributes: TypedSearchAttributes.fromContract(copyIntoRealm(searchAttributes)),
  };
}

/**
 * A random version-4 UUID that is the same on every replay (drawn from the run's seeded PRNG,
 * the one behind `Math.random`). Use it for idempotency keys and ids created by the workflow.
 */
export function uuid4(): string {
  return uuid4From(currentActivator('uuid4').random);
}

/**
 * Adds or replaces entries of the run's memo (`ModifyWorkflowProperties`, recorded as
 * `WorkflowPropertiesModified`): describe and list show the merged memo, and `workflowInfo().memo`
 * shows it at once. Unlike Temporal, a `null` value is stored as `null` rather than removing the key.
 * @example
 * upsertMemo({ stage: 'shipped', parcelId });
 */
export function upsertMemo(memo: Readonly<Record<string, unknown>>): void {
  const activator = currentActivator('upsertMemo');
  if (memo === null || typeof memo !== 'object' || Array.isArray(memo)) throw new TypeError('upsertMemo takes an object of named values');
  // Encoded now: what is recorded must not change if the caller mutates the values later.
  const upsertedMemo = Object.fromEntries(Object.entries(memo).map(([key, value]) => [key, activator.host.encode(value === undefined ? null : value)]));
  activator.pushCommand({ type: 'ModifyWorkflowProperties', upsertedMemo });
  activator.memo = { ...activator.memo, ...Object.fromEntries(Object.entries(memo).map(([key, value]) => [key, copyIntoRealm(value === undefined ? null : value)])) };
}

/**
 * True when no signal or update handler of the run is still running (Temporal's
 * `allHandlersFinished`): wait for it before the workflow returns or continues as new, so no
 * handler's work is cut off.
 * @example
 * await condition(allHandlersFinished);
 */
export function allHandlersFinished(): boolean {
  return currentActivator('allHandlersFinished').runningHandlers === 0;
}

/**
 * Adds, replaces or removes search attributes of the run (`UpsertWorkflowSearchAttributes`), so the
 * run can be found by them (`CustomerTier = 'gold'`). Values are typed (`{ type: 'Keyword', value }`)
 * or, as in Temporal, arrays whose values show the type (see `typedSearchAttributes`); an empty
 * array removes the attribute. Temporal's typed form, an array of `{ key, value }` pairs with keys
 * from `defineSearchAttributeKey`, works too (`value: null` removes). `workflowInfo().searchAttributes` shows the change at once.
 * @example
 * upsertSearchAttributes({ CustomerTier: ['gold'], OrderTotal: { type: 'Double', value: 12 }, Coupon: [] });
 */
export function upsertSearchAttributes(searchAttributes: Readonly<Record<string, SearchAttributeInput>> | readonly SearchAttributePair[]): void {
  const activator = currentActivator('upsertSearchAttributes');
  // Copied now: what is recorded must not change if the caller mutates the object later.
  const given = Array.isArray(searchAttributes) ? searchAttributesOfPairs(searchAttributes as readonly SearchAttributePair[]) : typedSearchAttributes(searchAttributes as Readonly<Record<string, SearchAttributeInput>>);
  const typed = copyIntoRealm(given);
  activator.pushCommand({ type: 'UpsertWorkflowSearchAttributes', searchAttributes: typed });
  activator.searchAttributes = mergeSearchAttributes(activator.searchAttributes, typed);
}
export { withSubject } from '../../topics/payload/subject-marker.js';
