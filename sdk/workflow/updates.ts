/**
 * Updates (Temporal's): `defineUpdate` names one, `setHandler(update, handler, { validator })`
 * handles it. A delivered update first meets its validator, run read-only like a query handler
 * (no commands, timers, activities or random draws; it must be synchronous): if it throws, the
 * update is rejected and nothing is recorded. Otherwise the update is accepted and its handler
 * runs like workflow code — it may await activities and timers — and its return value (or the
 * `ApplicationFailure` it throws) answers the caller. Any other error thrown by a handler fails
 * the workflow task, as in Temporal.
 *
 * Replaying, updates come from their WorkflowExecutionUpdateAccepted events: the validator is
 * skipped (it accepted them) and the handler runs again, its commands matched like the rest.
 * Updates delivered before their handler is set wait for it until the end of the activation; a
 * live one still without a handler then is rejected, naming the updates the run handles.
 * @module
 */
import type { Activator } from './activator.js';
import type { UpdateJob } from './bridge.js';
import { ContinueAsNew } from './continue-as-new.js';
import { currentActivator } from './current-activator.js';
import { ApplicationFailure, WorkflowFailure } from './errors.js';
import { failureInfoFromError } from './failure-info.js';

/** A named update returning `Ret` and taking `Args`. Create with `defineUpdate`. */
export interface UpdateDefinition<Ret = unknown, Args extends unknown[] = [], Name extends string = string> {
  readonly type: 'update';
  readonly name: Name;
  /** Type-only brands that carry `Ret` and `Args`; never set. */
  readonly __ret?: Ret;
  readonly __args?: Args;
}

/** Options of an update handler. */
export interface UpdateHandlerOptions<Args extends unknown[]> {
  /** Runs before the handler, read-only; throwing rejects the update (nothing is recorded). */
  readonly validator?: (...args: Args) => void;
}

/** A registered update handler and its validator. */
export interface UpdateHandlerEntry {
  handler: (...args: unknown[]) => unknown;
  validator: ((...args: unknown[]) => unknown) | undefined;
}

/** Implementation of the public `defineUpdate`. */
export function defineUpdate<Ret = unknown, Args extends unknown[] = [], Name extends string = string>(name: Name): UpdateDefinition<Ret, Args, Name> {
  return { type: 'update', name };
}

/** Implementation of `setHandler` for an update (`undefined` removes the handler). */
export function setUpdateHandler(
  update: UpdateDefinition<unknown, never[]>,
  handler: ((...args: never[]) => unknown) | undefined,
  options: UpdateHandlerOptions<never[]> = {},
): void {
  const activator = currentActivator('setHandler');
  if (handler === undefined) {
    activator.updateHandlers.delete(update.name);
    return;
  }
  activator.updateHandlers.set(update.name, { handler: handler as UpdateHandlerEntry['handler'], validator: options.validator as UpdateHandlerEntry['validator'] });
  const waiting = activator.bufferedUpdates.filter((u) => u.name === update.name);
  activator.bufferedUpdates.splice(0, activator.bufferedUpdates.length, ...activator.bufferedUpdates.filter((u) => u.name !== update.name));
  for (const job of waiting) runUpdate(activator, job);
}

/** Delivers an update job: to its handler, or into the buffer until one is set. */
export function deliverUpdate(activator: Activator, job: UpdateJob): void {
  if (activator.updateHandlers.has(job.name)) runUpdate(activator, job);
  else activator.bufferedUpdates.push(job);
}

/** Rejects the live updates that are still without a handler at the end of the activation. */
export function rejectUnhandledUpdates(activator: Activator): void {
  if (activator.isReplaying) return;
  const unhandled = activator.bufferedUpdates.splice(0, activator.bufferedUpdates.length);
  const known = [...activator.updateHandlers.keys()].sort();
  for (const job of unhandled) {
    const error = ApplicationFailure.nonRetryable(
      `workflow ${activator.info.workflowType} has no handler for update '${job.name}'; ` +
        (known.length === 0 ? 'it registered no updates (yet)' : `known updates: ${known.join(', ')}`),
      'UnknownUpdate',
    );
    activator.pushUpdateMessage({ type: 'UpdateRejection', updateId: job.updateId, failure: failureInfoFromError(error, encodeOrDrop(activator)) });
  }
}

function encodeOrDrop(activator: Activator): (value: unknown) => unknown {
  return (value) => {
    try {
      return activator.host.encode(value);
    } catch {
      return null;
    }
  };
}

/** The validator's verdict: null to accept, else why the update is rejected. */
function validate(activator: Activator, entry: UpdateHandlerEntry, job: UpdateJob): unknown {
  if (!job.runValidator || entry.validator === undefined) return null;
  activator.beginQuery(`update validator ${job.name}`);
  let error: unknown = null;
  try {
    const value = entry.validator(...job.args);
    if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
      Promise.resolve(value).catch(() => undefined);
      error = new TypeError(`the validator of update '${job.name}' returned a promise: validators must be synchronous`);
    }
  } catch (thrown) {
    error = thrown;
  }
  // A refused operation (a command, a random draw) says more than what the validator threw.
  return activator.endQuery() ?? error;
}

function runUpdate(activator: Activator, job: UpdateJob): void {
  const entry = activator.updateHandlers.get(job.name)!;
  const rejection = validate(activator, entry, job);
  if (rejection !== null) {
    activator.pushUpdateMessage({ type: 'UpdateRejection', updateId: job.updateId, failure: failureInfoFromError(rejection, encodeOrDrop(activator)) });
    return;
  }
  activator.pushUpdateMessage({ type: 'UpdateAcceptance', updateId: job.updateId });
  activator.trackHandler(activator.rootScope.run(async () => entry.handler(...job.args))).then(
    (value) => {
      try {
        activator.pushUpdateMessage({ type: 'UpdateResponse', updateId: job.updateId, result: activator.host.encode(value), failure: null });
      } catch (err) {
        activator.failTask(err);
      }
    },
    (err: unknown) => {
      if (err instanceof WorkflowFailure && !(err instanceof ContinueAsNew)) {
        activator.pushUpdateMessage({ type: 'UpdateResponse', updateId: job.updateId, result: null, failure: failureInfoFromError(err, encodeOrDrop(activator)) });
      } else {
        activator.handleWorkflowError(err);
      }
    },
  );
}
