/**
 * Queries: `defineQuery` names one, `setHandler` handles it, and the runtime answers a query from
 * the run's current state between activations (never in the middle of one).
 *
 * A query must not change the run: nothing it does may be recorded in history or shift what the
 * run does next. So a handler runs in *query mode* (see `Activator.beginQuery`): scheduling an
 * activity, starting a timer, waiting on a condition, issuing any command, drawing a random number
 * or closing the run throws inside the handler and fails the query — even if the handler catches
 * the error — and never the workflow. A handler must be synchronous: one that returns a promise
 * fails the query (its continuation could run in a later activation and change the run there).
 * @module
 */
import type { Activator, QueryHandler } from './activator.js';
import type { QueryInput, QueryOutput } from './bridge.js';
import { currentActivator } from './current-activator.js';
import { failureInfoFromError } from './failure-info.js';
import { copyIntoRealm } from './realm-copy.js';
import { describePendingOperations, STACK_TRACE_QUERY } from './stack-trace.js';

/**
 * Implementation of the public `setDefaultQueryHandler`: the handler answers every query that has
 * no handler of its own, with the query's name first (the built-in `__stack_trace` stays built
 * in); `undefined` removes it.
 */
export function setDefaultQueryHandler(handler: ((queryName: string, ...args: unknown[]) => unknown) | undefined): void {
  currentActivator('setDefaultQueryHandler').defaultQueryHandler = handler;
}

/** Stable failure codes of a query's answer (`Failure.code`); the gateway maps both to 400. */
export const QueryFailureCode = {
  /** The run has no handler for the query's name; the message lists the known ones. */
  UnknownQuery: 'UnknownQuery',
  /** The handler threw, returned a promise, tried to change the run, or the run cannot be rebuilt. */
  QueryFailed: 'QueryFailed',
} as const;

/** A named query returning `Ret` and taking `Args`. Create with `defineQuery`. */
export interface QueryDefinition<Ret = unknown, Args extends unknown[] = [], Name extends string = string> {
  readonly type: 'query';
  readonly name: Name;
  /** Type-only brands that carry `Ret` and `Args`; never set. */
  readonly __ret?: Ret;
  readonly __args?: Args;
}

/** Implementation of the public `defineQuery`. */
export function defineQuery<Ret = unknown, Args extends unknown[] = [], Name extends string = string>(
  name: Name,
): QueryDefinition<Ret, Args, Name> {
  return { type: 'query', name };
}

/** Implementation of `setHandler` for a query (`undefined` removes the handler). */
export function setQueryHandler(query: QueryDefinition<unknown, never[]>, handler: ((...args: never[]) => unknown) | undefined): void {
  const activator = currentActivator('setHandler');
  if (handler === undefined) activator.queryHandlers.delete(query.name);
  else activator.queryHandlers.set(query.name, handler as QueryHandler);
}

/** A query that cannot be answered: its `name` is the failure code the asker sees. */
class QueryError extends Error {
  constructor(code: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = code;
  }
}

/**
 * Runs queries for the runtime: `prepare` enters query mode (outside the deadline), `run` calls
 * the handler and encodes its result (inside it), `conclude` leaves query mode and answers —
 * after the microtasks the handler caused have run, so a refusal they met still fails the query.
 */
export class QueryRunner {
  #input: QueryInput | null = null;
  #outcome: { encoded: unknown } | { error: unknown } | null = null;

  constructor(private readonly activator: Activator) {}

  /** Stores the query and enters query mode (called by the host directly, outside the deadline). */
  prepare(input: QueryInput): void {
    this.#input = copyIntoRealm(input);
    this.#outcome = null;
    this.activator.beginQuery(input.queryType);
  }

  /** Calls the handler and encodes its result (called under the host's deadline). */
  run(): void {
    const input = this.#input;
    if (input === null) throw new Error('query() without prepareQuery()');
    this.#input = null;
    const fallback = this.activator.defaultQueryHandler;
    if (!this.activator.queryHandlers.has(input.queryType) && input.queryType === STACK_TRACE_QUERY) {
      this.#outcome = { encoded: this.activator.host.encode(describePendingOperations(this.activator)) };
      return;
    }
    const handler = this.activator.queryHandlers.get(input.queryType) ?? (fallback && ((...args: unknown[]) => fallback(input.queryType, ...args)));
    if (handler === undefined) {
      this.#outcome = { error: this.#unknown(input.queryType) };
      return;
    }
    try {
      const value = handler(...input.args);
      if (isThenable(value)) {
        // Nobody awaits it: its rejection must not surface as unhandled.
        Promise.resolve(value).catch(() => undefined);
        const message = `query handler '${input.queryType}' returned a promise: query handlers must be synchronous (use a plain function, not async)`;
        this.#outcome = { error: new QueryError(QueryFailureCode.QueryFailed, message) };
        return;
      }
      this.#outcome = { encoded: this.activator.host.encode(value) };
    } catch (error) {
      const message = `query handler '${input.queryType}' failed: ${String((error as Error)?.message ?? error)}`;
      this.#outcome = { error: new QueryError(QueryFailureCode.QueryFailed, message, error) };
    }
  }

  /** True when the query failed so far (then `conclude` reads user-defined error properties: run it bounded). */
  hasFailure(): boolean {
    return this.#outcome === null || 'error' in this.#outcome || this.activator.queryRefused;
  }

  /** Leaves query mode and returns the answer, or the failure (a refused operation wins). */
  conclude(): QueryOutput {
    const refusal = this.activator.endQuery();
    const outcome = this.#outcome ?? { error: new Error('the query did not run') };
    this.#outcome = null;
    if (refusal === null && 'encoded' in outcome) return { result: outcome.encoded, failure: null };
    // A refused operation wins over the handler's own error: it says what the handler did wrong.
    const error = refusal === null
      ? (outcome as { error: unknown }).error
      : new QueryError(QueryFailureCode.QueryFailed, String((refusal as Error)?.message ?? refusal), refusal);
    return { result: null, failure: failureInfoFromError(error, this.#encodeOrDrop) };
  }

  #unknown(queryType: string): QueryError {
    const known = [...this.activator.queryHandlers.keys()].sort();
    const { workflowType, workflowId } = this.activator.info;
    return new QueryError(
      QueryFailureCode.UnknownQuery,
      `workflow ${workflowType} (workflowId ${workflowId}) has no handler for query '${queryType}'; ` +
        (known.length === 0 ? 'it registered no queries (yet)' : `known queries: ${known.join(', ')}`),
    );
  }

  // The failure must be reported even if its details cannot be encoded.
  readonly #encodeOrDrop = (value: unknown): unknown => {
    try {
      return this.activator.host.encode(value);
    } catch {
      return null;
    }
  };
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
