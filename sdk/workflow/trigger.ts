/**
 * `Trigger` of `logbook/workflow`, as Temporal's: a promise whose `resolve` and `reject` the
 * workflow holds, e.g. to wake the main function from a signal handler. It belongs to the
 * cancellation scope it is created in: when that scope is cancelled, it rejects with the
 * scope's `CancelledFailure` (unless settled before).
 * @module
 */
import { CancellationScope } from './cancellation-scope.js';

/**
 * A promise settled by whoever holds it.
 * @example
 * const approved = new Trigger<string>();
 * setHandler(approve, (by) => approved.resolve(by));
 * const approver = await approved;
 */
export class Trigger<T> implements PromiseLike<T> {
  /** Settles the trigger with `value` (later calls do nothing). */
  readonly resolve: (value: T | PromiseLike<T>) => void;
  /** Rejects the trigger with `reason` (later calls do nothing). */
  readonly reject: (reason?: unknown) => void;
  readonly #promise: Promise<T>;

  constructor() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    this.#promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.resolve = resolve;
    this.reject = reject;
    const scope = CancellationScope.current();
    if (scope.cancellable) scope.cancelRequested.catch((reason: unknown) => reject(reason));
    // Nobody may await a trigger that is rejected by its scope: not an unhandled rejection.
    this.#promise.catch(() => undefined);
  }

  then<R1 = T, R2 = never>(onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null, onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    return this.#promise.then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#promise.catch(onRejected);
  }
}
