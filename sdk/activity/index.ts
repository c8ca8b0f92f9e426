/**
 * `logbook/activity`: what activity code imports, named as in Temporal's `@temporalio/activity`.
 * Every function works inside an activity (one a worker is running) and throws `NOT_IN_ACTIVITY`
 * elsewhere; `log` outside an activity logs without activity attributes.
 *
 * @example
 * import { activityInfo, heartbeat, log, sleep } from 'logbook/activity';
 * export async function ship(parcelId: string): Promise<void> {
 *   const { attempt, heartbeatDetails } = activityInfo();
 *   for (let step = (heartbeatDetails as number | undefined) ?? 0; step < 10; step++) {
 *     await sleep('1s');
 *     heartbeat(step);
 *   }
 *   log.info('shipped', { parcelId, attempt });
 * }
 * @module
 */
import { runtimeLogger, type Logger, type LogLevel, type LogMetadata } from '../common/logger.js';
import { activityContext, type ActivityInfo } from '../worker/activity-context.js';
import type { Duration } from '../workflow/duration.js';

export { Context, activityContext, type ActivityContext, type ActivityInfo } from '../worker/activity-context.js';
export { ApplicationFailure, CancelledFailure, type ApplicationFailureOptions } from '../workflow/errors.js';
export { CompleteAsyncError } from '../worker/complete-async-error.js';
export type { Logger, LogLevel, LogMetadata } from '../common/logger.js';

/** The running activity's info (Temporal's `activityInfo()`). */
export function activityInfo(): ActivityInfo {
  return activityContext().info;
}

/** Reports progress (throttled); the details reach the next attempt if this one fails. */
export function heartbeat(details?: unknown): void {
  activityContext().heartbeat(details);
}

/** Waits, or rejects early with a `CancelledFailure` when the activity is cancelled. */
export function sleep(duration: Duration): Promise<void> {
  return activityContext().sleep(duration);
}

/** Rejects with a `CancelledFailure` once the activity is cancelled. */
export function cancelled(): Promise<never> {
  return activityContext().cancelled;
}

/** Aborted when the activity is cancelled; pass it to what the activity calls (`fetch`, …). */
export function cancellationSignal(): AbortSignal {
  return activityContext().cancellationSignal;
}

/** The logger of the running activity, or the process's outside one. */
function currentLogger(): Logger {
  try {
    return activityContext().log;
  } catch {
    return runtimeLogger();
  }
}

/** Logs with the running activity's attributes (Temporal's activity `log`). */
export const log: Logger = {
  log: (level: LogLevel, message: string, meta?: LogMetadata) => currentLogger().log(level, message, meta),
  trace: (message, meta) => currentLogger().trace(message, meta),
  debug: (message, meta) => currentLogger().debug(message, meta),
  info: (message, meta) => currentLogger().info(message, meta),
  warn: (message, meta) => currentLogger().warn(message, meta),
  error: (message, meta) => currentLogger().error(message, meta),
};
export { withSubject } from '../../topics/payload/subject-marker.js';
