/**
 * The workflow `log` (Temporal's `log` of `@temporalio/workflow`): what a workflow logs goes to
 * the worker process's logger with the run's attributes, and nothing is logged while the run
 * replays, so a line appears once however often the run is rebuilt.
 * @module
 */
import type { LogLevel } from './bridge.js';
import { currentActivator } from './current-activator.js';

/** Attributes of a log entry, added to the run's. */
export type LogAttributes = Record<string, unknown>;

const forward = (level: LogLevel) => (message: string, attributes?: LogAttributes): void => {
  const activator = currentActivator(`log.${level}`);
  if (!activator.isReplaying) activator.host.log(level, attributes === undefined ? [String(message)] : [String(message), attributes]);
};

/**
 * Logs from workflow code (silent while replaying).
 *
 * @example
 * log.info('order accepted', { orderId });
 */
export const log = {
  trace: forward('trace'),
  debug: forward('debug'),
  info: forward('info'),
  warn: forward('warn'),
  error: forward('error'),
};
