/**
 * Cancellation scopes (Temporal's model): every timer, condition and activity belongs to the scope
 * current when it started; cancelling a scope cancels what it holds and its cancellable children.
 * The run's root scope is cancelled by a cancel request. The current scope follows `await`
 * through an `AsyncLocalStorage` the host lends the sandbox.
 * @module
 */
import { currentActivator, maybeActivator } from './current-activator.js';
import { durationToMs, type Duration } from './duration.js';
import { CancelledFailure } from './errors.js';
import { startTimer } from './operations.js';

/** Called once when the scope (or a cancellable ancestor) is cancelled. */
export type CancelListener = (reason: CancelledFailure) => void;

/** Options of a new {@link CancellationScope}. */
export interface CancellationScopeOptions {
  /** `false` = cancellation of the parent does not reach this scope (cleanup code). Default `true`. */
  cancellable?: boolean;
  /** Defaults to the current scope. */
  parent?: CancellationScope;
  /**
   * Cancels the scope this long after `run` starts (a durable timer, cancelled when `fn` settles
   * first), as Temporal's option of the same name.
   */
  timeout?: Duration;
}

/**
 * A unit of cancellation.
 *
 * @example
 * try {
 *   await chargeCard(order);
 * } catch (err) {
 *   if (isCancellation(err)) await CancellationScope.nonCancellable(() => refund(order));
 *   throw err;
 * }
 */
export class CancellationScope {
  readonly cancellable: boolean;
  readonly parent: CancellationScope | undefined;
  #reason: CancelledFailure | null = null;
  readonly #listeners = new Set<CancelListener>();
  #cancelRequested: Promise<never> | undefined;
  /** The scope's `timeout` option in ms (Temporal's `timeout` property), if it has one. */
  readonly timeout: number | undefined;

  constructor(options: CancellationScopeOptions = {}) {
    this.cancellable = options.cancellable ?? true;
    this.parent = 'parent' in options ? options.parent : CancellationScope.current();
    this.timeout = options.timeout === undefined ? undefined : durationToMs(options.timeout, 'CancellationScope timeout');
  }

  /** The scope code is running in (the root scope outside any `run`). */
  static current(): CancellationScope {
    const activator = currentActivator('CancellationScope.current');
    return (activator.als.getStore() as CancellationScope | undefined) ?? activator.rootScope;
  }

  /** Runs `fn` in a new cancellable child of the current scope. */
  static cancellable<T>(fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: true }).run(fn);
  }

  /** Runs `fn` in a scope that cancellation of its parents does not reach (cleanup, compensation). */
  static nonCancellable<T>(fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: false }).run(fn);
  }

  /**
   * Runs `fn` in a cancellable scope that is cancelled after `timeout` (a durable timer, started
   * before `fn` runs and cancelled when `fn` settles first).
   */
  static withTimeout<T>(timeout: Duration, fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: true, timeout }).run(fn);
  }

  /** True when this scope, or (for a cancellable scope) an ancestor, was cancelled. */
  get consideredCancelled(): boolean {
    return this.reason !== null;
  }

  /** Why the scope counts as cancelled, or `null`. */
  get reason(): CancelledFailure | null {
    if (this.#reason !== null) return this.#reason;
    return this.cancellable && this.parent !== undefined ? this.parent.reason : null;
  }

  /** Rejects with a {@link CancelledFailure} once the scope is cancelled. */
  get cancelRequested(): Promise<never> {
    if (this.#cancelRequested === undefined) {
      this.#cancelRequested = new Promise<never>((_, reject) => {
        const reason = this.reason;
        if (reason !== null) reject(reason);
        else this.onCancel(reject);
      });
      // A signal to race against, not an error if nobody listens.
      this.#cancelRequested.catch(noop);
    }
    return this.#cancelRequested;
  }

  /** Runs `fn` with this scope as the current one; while it runs, parent cancellation reaches it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const unlink = this.cancellable && this.parent ? this.parent.onCancel((reason) => this.#cancelWith(reason)) : noop;
    const activator = currentActivator('CancellationScope.run');
    const timer = this.timeout === undefined ? undefined : startTimer(activator, this, this.timeout);
    timer?.promise.then(() => this.cancel('Deadline exceeded'), noop);
    const result = activator.als.run(this, () => {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err);
      }
    });
    return result.finally(() => {
      unlink();
      timer?.cancel();
    });
  }

  /** Cancels the scope: pending timers, conditions and activities in it reject. */
  cancel(message = 'Cancellation scope cancelled'): void {
    this.#cancelWith(new CancelledFailure(message));
  }

  /**
   * Registers a listener for this scope's cancellation (propagated cancellation included).
   * @returns a function that unregisters it (call it when the operation settles)
   */
  onCancel(listener: CancelListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #cancelWith(reason: CancelledFailure): void {
    if (this.#reason !== null) return;
    this.#reason = reason;
    for (const listener of [...this.#listeners]) listener(reason);
    this.#listeners.clear();
  }
}

/** The root scope of a run (no parent; cancelled by a cancel request). */
export function createRootScope(): CancellationScope {
  return new CancellationScope({ cancellable: true, parent: undefined });
}

/** True when code runs inside a workflow sandbox. */
export function inWorkflowContext(): boolean {
  return maybeActivator() !== undefined;
}

function noop(): void {}
