/**
 * Workflows used by the replay engine's tests (bundled like any user module).
 * @module
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  defineSignal,
  getExternalWorkflowHandle,
  isCancellation,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
  type WorkflowInfo,
} from '../../workflow/index.js';

/** The activities the test workflows call (types only: workflows never import implementations). */
export interface OrderActivities {
  reserve(orderId: string): Promise<string>;
  charge(reservation: string): Promise<string>;
  ship(receipt: string): Promise<string>;
}

const { reserve, charge, ship } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['PaymentDeclined'] },
});

/** Three activities one after the other; returns the last result. */
export async function sequential(orderId: string): Promise<string> {
  const reservation = await reserve(orderId);
  const receipt = await charge(reservation);
  return ship(receipt);
}

/** Never yields: the deadlock detector must interrupt it. */
export async function busyLoop(): Promise<void> {
  while (Date.now() > 0) {
    // spin
  }
}

/** Samples every source of non-determinism the sandbox replaces, before and after a timer. */
export async function nondeterministicApis(): Promise<Record<string, unknown>> {
  const before = { now: Date.now(), iso: new Date().toISOString(), random: Math.random(), uuid: uuid4(), dateCall: Date() };
  await sleep('1s');
  return { before, afterNow: Date.now(), afterRandom: Math.random(), weakRef: typeof (globalThis as Record<string, unknown>).WeakRef };
}

/** `setTimeout` becomes a durable timer. */
export async function usesSetTimeout(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  return 'woke up';
}

/** `setInterval` is refused even when the error is caught. */
export async function usesSetInterval(): Promise<string> {
  try {
    setInterval(() => undefined, 10);
  } catch {
    // swallowing it must not hide the violation
  }
  return 'unreachable';
}

/** Signals may arrive before the handler is set. */
export const approve = defineSignal<[by: string]>('approve');

/** Sleeps, then handles `approve` (buffered ones included) and waits for it up to an hour. */
export async function approval(): Promise<string> {
  let approvedBy: string | undefined;
  await sleep('1m');
  setHandler(approve, (by) => {
    approvedBy = by;
  });
  const approved = await condition(() => approvedBy !== undefined, '1h');
  return approved ? `approved by ${approvedBy}` : 'timed out';
}

/** Fails the run with a business failure. */
export async function declines(): Promise<never> {
  throw ApplicationFailure.nonRetryable('card declined', 'PaymentDeclined', { orderId: 7 });
}

/** A bug: fails the task, not the run. */
export async function hasABug(): Promise<number> {
  const order = JSON.parse('null') as { total: number };
  return order.total;
}

/** Reports how an activity failure looks to workflow code. */
export async function catchesActivityFailure(): Promise<Record<string, unknown>> {
  try {
    await charge('r-1');
    return { caught: false };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause as ApplicationFailure;
    return { caught: true, activityType: err.activityType, causeType: cause.type, causeMessage: cause.message, details: cause.details };
  }
}

/** Compensates in a non-cancellable scope when cancelled, then lets the cancellation end the run. */
export async function cancellable(orderId: string): Promise<string> {
  try {
    await reserve(orderId);
    await sleep('1d');
    return 'done';
  } catch (err) {
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => charge('refund'));
    throw err;
  }
}

/** Returns `workflowInfo()` and upserts a search attribute. */
export async function info(): Promise<WorkflowInfo> {
  upsertSearchAttributes({ CustomerTier: { type: 'Keyword', value: 'gold' } });
  return workflowInfo();
}

/** Leaves a rejected promise unhandled (a forgotten `await`): the worker must not crash. */
export async function leavesRejectionUnhandled(): Promise<string> {
  void Promise.reject(new Error('nobody awaits me'));
  return 'still fine';
}

/** Starts two activities and awaits them in order; the second may fail first. */
export async function parallelActivities(): Promise<string> {
  const reservation = reserve('a');
  const receipt = charge('b');
  const first = await reservation;
  try {
    return `${first} + ${await receipt}`;
  } catch (err) {
    return `${first}, then ${(err as Error).message}`;
  }
}

/** `steps` activities one after the other (long histories for the activation benchmark). */
export async function manySteps(steps: number): Promise<number> {
  for (let i = 0; i < steps; i++) await reserve(String(i));
  return steps;
}

/** Gives an activity one minute (a durable timer), then cancels it. */
export async function reserveWithin(limit: string): Promise<string> {
  try {
    return await CancellationScope.withTimeout(limit, () => reserve('x'));
  } catch (err) {
    if (isCancellation(err)) return 'timed out';
    throw err;
  }
}

/**
 * Counts up to `until`, one durable 1 s timer per step, and continues as new — carrying the count —
 * whenever the engine suggests it. Returns what the final run knows about its chain.
 */
export async function poller(count: number, until: number): Promise<Record<string, unknown>> {
  while (count < until) {
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof poller>(count, until);
    await sleep('1s');
    count++;
  }
  const info = workflowInfo();
  return { count, runId: info.runId, firstExecutionRunId: info.firstExecutionRunId, continuedFrom: info.continuedFromExecutionRunId ?? null, historyLength: info.historyLength };
}

const continueAsPoller = makeContinueAsNewFunc<typeof poller>({ workflowType: 'poller', taskQueue: 'pollers', workflowTaskTimeout: '5s' });

/** Hands over to a `poller` on another queue; nothing after the call runs, `finally` does (and issues nothing). */
export async function handsOver(): Promise<string> {
  try {
    await continueAsPoller(7, 9);
    await sleep('1h');
    return 'never';
  } finally {
    upsertSearchAttributes({ HandedOver: { type: 'Bool', value: true } });
  }
}

/** Signals `target` ('go', 7), then asks it to cancel; returns how far it got. */
export async function notifier(target: string): Promise<string> {
  const handle = getExternalWorkflowHandle(target);
  try {
    await handle.signal(defineSignal<[number]>('go'), 7);
  } catch (err) {
    return `signal failed: ${err instanceof ApplicationFailure ? err.type : String(err)}`;
  }
  await handle.cancel();
  return 'signalled and cancelled';
}
