import { AsyncLocalStorage } from 'node:async_hooks';
import { LogbookError } from '../../topics/errors.js';
import { runtimeLogger, withAttributes, type Logger } from '../common/logger.js';
import { durationToMs, type Duration } from '../workflow/duration.js';

/** What an activity knows about the attempt it runs. */
export interface ActivityInfo {
  readonly namespace: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly activityId: string;
  readonly activityType: string;
  readonly taskQueue: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Stable across attempts and replays: `${workflowId}:${activityId}`. Pass it to the systems you call. */
  readonly idempotencyKey: string;
  /** The details the previous attempt last heartbeated, to resume from (undefined if none). */
  readonly heartbeatDetails: unknown;
  /** The run that scheduled the activity (Temporal's field). */
  readonly workflowExecution: { readonly workflowId: string; readonly runId: string };
  /** The workflow's namespace (Temporal's field; the same as `namespace`). */
  readonly workflowNamespace: string;
  /** The activity's namespace (the workflow's). */
  readonly activityNamespace: string;
  /** True for a local activity (run by the workflow worker, recorded as a marker). */
  readonly isLocal: boolean;
  /** The attempt's start-to-close timeout, ms (for a local activity the attempt's whole budget). */
  readonly startToCloseTimeoutMs: number;
  /** The activity's schedule-to-close timeout, ms, if one is set. */
  readonly scheduleToCloseTimeoutMs: number | undefined;
  /** The heartbeat timeout, ms, if one is set. */
  readonly heartbeatTimeoutMs: number | undefined;
  /** When the activity was first scheduled, ms since the epoch. */
  readonly scheduledTimestampMs: number;
  /** When this attempt was scheduled, ms since the epoch. */
  readonly currentAttemptScheduledTimestampMs: number;
  /** When this worker started the attempt, ms since the epoch. */
  readonly startedTimestampMs: number;
  /** Names this attempt for async completion (`client.activity.complete(taskToken, result)`); empty for a local activity. */
  readonly taskToken: Uint8Array;
  /** {@link taskToken} as base64 (to pass around as text). */
  readonly base64TaskToken: string;
}

/** The running activity's handle: its info, a heartbeat, and the signal that says it was cancelled. */
export interface ActivityContext {
  readonly info: ActivityInfo;
  /**
   * Aborted when the activity is cancelled (its reason is then a `CancelledFailure`), its attempt
   * superseded, or the worker shuts down. Throwing after a cancellation reports the activity
   * cancelled (ActivityTaskCanceled) rather than failed.
   */
  readonly cancellationSignal: AbortSignal;
  /** Rejects with the signal's reason once {@link cancellationSignal} aborts (Temporal's `Context.cancelled`). */
  readonly cancelled: Promise<never>;
  /** Waits `ms` (or a duration such as `'2s'`), or rejects early with the cancellation (Temporal's `Context.sleep`). */
  sleep(ms: Duration): Promise<void>;
  /** Reports progress (throttled); the details reach the next attempt if this one fails. */
  heartbeat(details?: unknown): void;
  /** The process's logger with the activity's attributes (Temporal's `Context.log`). */
  readonly log: Logger;
}

/** The logger of an activity: the process's logger (`Runtime.install`) with the attempt's attributes. */
export function activityLogger(info: ActivityInfo): Logger {
  const { namespace, taskQueue, workflowId, runId, workflowType, activityId, activityType, attempt, isLocal } = info;
  return withAttributes(runtimeLogger, () => ({ sdkComponent: 'activity', namespace, taskQueue, workflowId, runId, workflowType, activityId, activityType, attempt, isLocal }));
}

const storage = new AsyncLocalStorage<ActivityContext>();

/**
 * The `cancelled` promise and `sleep` of a context whose cancellation is `signal`. As in Temporal,
 * a heartbeat never throws: an activity learns of its cancellation from these and the signal.
 */
export function cancellationHelpers(signal: AbortSignal): Pick<ActivityContext, 'cancelled' | 'sleep'> {
  const cancelled = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  // Only a signal to race against: not an unhandled rejection when nobody awaits it.
  cancelled.catch(() => undefined);
  const sleep = (duration: Duration) => {
    const ms = durationToMs(duration, 'sleep');
    return Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), cancelled]);
  };
  return { cancelled, sleep };
}

/** Runs `fn` with `context` as the current activity context. */
export function runInActivityContext<T>(context: ActivityContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

/**
 * The context of the activity running now, as in Temporal's `Context.current()`.
 *
 * @example
 * export async function chargeCard(order: Order) {
 *   const { info, heartbeat, cancellationSignal } = activityContext();
 *   await payments.charge(order, { idempotencyKey: info.idempotencyKey, signal: cancellationSignal });
 * }
 */
export function activityContext(): ActivityContext {
  const context = storage.getStore();
  if (!context) throw new LogbookError('NOT_IN_ACTIVITY', 'activityContext() was called outside an activity');
  return context;
}

/**
 * Temporal's name for the activity context: `Context.current()` is {@link activityContext}.
 *
 * @example
 * const { heartbeatDetails } = Context.current().info;
 */
export const Context = { current: activityContext } as const;
