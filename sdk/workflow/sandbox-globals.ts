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
import type { LogLevel } from './bridge.js';
import { CancellationScope } from './cancellation-scope.js';
import { startTimer, type TimerHandle } from './operations.js';

type Globals = Record<string, unknown>;

/** Installs the deterministic globals of a run into `target` (the sandbox's `globalThis`). */
export function installDeterministicGlobals(target: typeof globalThis, activator: Activator): void {
  const g = target as unknown as Globals;
  g.Date = workflowDate(target.Date, activator);
  target.Math.random = activator.random;
  installTimers(g, activator);
  for (const api of ['setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'requestAnimationFrame']) {
    g[api] = () =>
      activator.violation(
        `${api} is not available in workflow code: it would not replay deterministically. ` +
          'Use sleep() (a durable timer) in a loop, or condition().',
      );
  }
  g.queueMicrotask = (fn: () => void) => {
    Promise.resolve().then(fn).catch((err: unknown) => activator.handleWorkflowError(err));
  };
  for (const name of ['WeakRef', 'FinalizationRegistry', 'WebAssembly']) delete g[name];
  patchIntl(target, activator);
  g.console = workflowConsole(activator);
}

function workflowDate(OriginalDate: DateConstructor, activator: Activator): DateConstructor {
  function WorkflowDate(this: unknown, ...args: unknown[]): unknown {
    if (new.target === undefined) return new OriginalDate(activator.now).toString();
    const dateArgs = args.length === 0 ? [activator.now] : args;
    return Reflect.construct(OriginalDate, dateArgs, new.target);
  }
  // Same prototype, so `instanceof Date` and subclassing keep working.
  WorkflowDate.prototype = OriginalDate.prototype;
  Object.defineProperty(OriginalDate.prototype, 'constructor', { value: WorkflowDate, writable: true, configurable: true });
  const statics = { now: () => activator.now, parse: OriginalDate.parse, UTC: OriginalDate.UTC };
  return Object.assign(WorkflowDate, statics) as unknown as DateConstructor;
}

function installTimers(g: Globals, activator: Activator): void {
  const pending = new Map<number, TimerHandle>();
  g.setTimeout = (callback: unknown, delay?: number, ...args: unknown[]) => {
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
  };
  g.clearTimeout = (id: unknown) => {
    if (typeof id === 'number') pending.get(id)?.cancel('clearTimeout');
  };
}

function patchIntl(target: typeof globalThis, activator: Activator): void {
  const proto = target.Intl.DateTimeFormat.prototype;
  const format = Object.getOwnPropertyDescriptor(proto, 'format')?.get;
  const formatToParts = proto.formatToParts;
  if (format !== undefined) {
    Object.defineProperty(proto, 'format', {
      configurable: true,
      get(this: Intl.DateTimeFormat) {
        const bound = format.call(this) as (date?: Date | number) => string;
        return (date?: Date | number) => bound(date ?? activator.now);
      },
    });
  }
  proto.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
    return formatToParts.call(this, date ?? activator.now);
  };
}

function workflowConsole(activator: Activator): Record<LogLevel | 'log' | 'trace', (...args: unknown[]) => void> {
  const forward = (level: LogLevel) => (...args: unknown[]) => {
    if (!activator.isReplaying) activator.host.log(level, args);
  };
  return { log: forward('info'), info: forward('info'), debug: forward('debug'), trace: forward('debug'), warn: forward('warn'), error: forward('error') };
}
