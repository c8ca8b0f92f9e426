/**
 * Makes the sandbox's globals deterministic before any workflow code is evaluated:
 * - `Date` / `Date.now()` give the workflow's current time (the workflow task's time);
 * - `Math.random` draws from the run's seeded PRNG;
 * - `setTimeout` / `clearTimeout` are durable timers (as in Temporal), `queueMicrotask` is a promise job;
 * - `setInterval`, `setImmediate` and friends throw a `DeterminismViolationError` naming the API;
 * - `WeakRef`, `FinalizationRegistry` (garbage-collection timing) and `WebAssembly` (compiles on
 *   the host's schedule) are removed;
 * - `Intl.DateTimeFormat#format()` without a date uses the workflow's time;
 * - `console` forwards to the worker's logger and is silent while replaying.
 * @module
 */
import type { Activator } from './activator.js';
import { INSTALLED_GLOBALS_GLOBAL, type LogLevel } from './bridge.js';
import { CancellationScope } from './cancellation-scope.js';
import { startTimer, type TimerHandle } from './operations.js';

type Globals = Record<string, unknown>;


/** The `setTimeout` and `clearTimeout` of one run: durable timers in the run's cancellation scope. */
export interface RunTimers {
  setTimeout(callback: unknown, delay?: number, ...args: unknown[]): number;
  clearTimeout(id: unknown): void;
}

/**
 * Installs the deterministic globals into `target` (the sandbox's `globalThis`) once per context.
 * Every run evaluated in the context shares them, so each one asks `current()` — the activator of
 * the run the host is activating — rather than closing over a run of its own.
 */
export function installDeterministicGlobals(target: typeof globalThis, current: () => Activator): void {
  const g = target as unknown as Globals;
  if (g[INSTALLED_GLOBALS_GLOBAL]) return;
  // Recorded, so the host can tell these from a run's own globals and put back one a run replaced.
  const installed: Record<string, unknown> = {};
  const define = (name: string, value: unknown) => {
    installed[name] = value;
    Object.defineProperty(g, name, { value, enumerable: false, writable: true, configurable: true });
  };
  define('Date', workflowDate(target.Date, current));
  target.Math.random = () => current().random();
  define('setTimeout', (callback: unknown, delay?: number, ...args: unknown[]) => current().globalTimers.setTimeout(callback, delay, ...args));
  define('clearTimeout', (id: unknown) => current().globalTimers.clearTimeout(id));
  for (const api of ['setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'requestAnimationFrame']) {
    define(api, () =>
      current().violation(
        `${api} is not available in workflow code: it would not replay deterministically. ` +
          'Use sleep() (a durable timer) in a loop, or condition().',
      ),
    );
  }
  define('queueMicrotask', (fn: () => void) => {
    const activator = current();
    Promise.resolve().then(fn).catch((err: unknown) => activator.handleWorkflowError(err));
  });
  for (const name of ['WeakRef', 'FinalizationRegistry', 'WebAssembly']) delete g[name];
  patchIntl(target, current);
  define('console', workflowConsole(current));
  Object.defineProperty(g, INSTALLED_GLOBALS_GLOBAL, { value: Object.freeze(installed), enumerable: false });
}

function workflowDate(OriginalDate: DateConstructor, current: () => Activator): DateConstructor {
  function WorkflowDate(this: unknown, ...args: unknown[]): unknown {
    if (new.target === undefined) return new OriginalDate(current().now).toString();
    const dateArgs = args.length === 0 ? [current().now] : args;
    return Reflect.construct(OriginalDate, dateArgs, new.target);
  }
  // Same prototype, so `instanceof Date` and subclassing keep working.
  WorkflowDate.prototype = OriginalDate.prototype;
  Object.defineProperty(OriginalDate.prototype, 'constructor', { value: WorkflowDate, writable: true, configurable: true });
  const statics = { now: () => current().now, parse: OriginalDate.parse, UTC: OriginalDate.UTC };
  return Object.assign(WorkflowDate, statics) as unknown as DateConstructor;
}

/** The durable `setTimeout` / `clearTimeout` of a run (its pending timers are its own). */
export function createRunTimers(activator: Activator): RunTimers {
  const pending = new Map<number, TimerHandle>();
  return {
    setTimeout(callback, delay, ...args) {
      if (typeof callback !== 'function') activator.violation('setTimeout needs a function (strings are not evaluated)');
      const ms = Number.isFinite(Number(delay)) ? Math.max(0, Number(delay)) : 0;
      const timer = startTimer(activator, CancellationScope.current(), ms);
      pending.set(timer.seq, timer);
      timer.promise.then(
        () => {
          pending.delete(timer.seq);
          try {
            (callback as (...a: unknown[]) => void)(...args);
          } catch (err) {
            activator.handleWorkflowError(err);
          }
        },
        () => pending.delete(timer.seq),
      );
      return timer.seq;
    },
    clearTimeout(id) {
      if (typeof id === 'number') pending.get(id)?.cancel('clearTimeout');
    },
  };
}

function patchIntl(target: typeof globalThis, current: () => Activator): void {
  const proto = target.Intl.DateTimeFormat.prototype;
  const format = Object.getOwnPropertyDescriptor(proto, 'format')?.get;
  const formatToParts = proto.formatToParts;
  if (format !== undefined) {
    Object.defineProperty(proto, 'format', {
      configurable: true,
      get(this: Intl.DateTimeFormat) {
        const bound = format.call(this) as (date?: Date | number) => string;
        return (date?: Date | number) => bound(date ?? current().now);
      },
    });
  }
  proto.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
    return formatToParts.call(this, date ?? current().now);
  };
}

function workflowConsole(current: () => Activator): Record<LogLevel | 'log' | 'trace', (...args: unknown[]) => void> {
  const forward = (level: LogLevel) => (...args: unknown[]) => {
    const activator = current();
    if (!activator.isReplaying) activator.host.log(level, args);
  };
  return { log: forward('info'), info: forward('info'), debug: forward('debug'), trace: forward('debug'), warn: forward('warn'), error: forward('error') };
}
