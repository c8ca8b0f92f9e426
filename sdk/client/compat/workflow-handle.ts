/**
 * The workflow handle of `logbook/client`, in the shape of `@temporalio/client`'s: `result()`
 * resolves with the run's value (following continue-as-new) or throws `WorkflowFailedError`,
 * signals, queries and updates take a definition or a name.
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';
import { WorkflowClientError } from '../gateway-call.js';
import type { HistoryEvent } from '../../../topics/schemas/history-event/index.js';
import type { WorkflowHandle as GatewayHandle, WorkflowOutcome } from '../workflow-client.js';
import type { WorkflowService } from './workflow-service.js';
import type { UpdateOptions, WorkflowUpdateHandle } from '../workflow-updates.js';
import type { QueryDefinition } from '../../workflow/queries.js';
import type { SignalDefinition } from '../../workflow/signals.js';
import type { UpdateDefinition } from '../../workflow/updates.js';
import { executionInfoOf, type WorkflowExecutionDescription } from './workflow-descriptions.js';
import { closedRunError, WorkflowNotFoundError, type FailureJson } from './workflow-errors.js';

/** Any workflow function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Temporal's `Workflow`: any arguments, any result
export type Workflow = (...args: any[]) => Promise<unknown>;
/** What a workflow function resolves with. */
export type WorkflowResultType<T extends Workflow> = T extends (...args: never[]) => Promise<infer R> ? R : unknown;

/** A signal, query or update: its definition from workflow code (`defineSignal(…)`) or its name. */
export type Named = string | { readonly name: string };
const nameOf = (definition: Named): string => (typeof definition === 'string' ? definition : definition.name);

/** The stages an update call can wait for (Temporal's `WorkflowUpdateStage`). */
export const WorkflowUpdateStage = {
  /** The workflow accepted the update (its validator passed): `startUpdate` returns then. */
  ACCEPTED: 'ACCEPTED',
  /** The update's handler finished: `executeUpdate` returns then. */
  COMPLETED: 'COMPLETED',
} as const;
export type WorkflowUpdateStage = (typeof WorkflowUpdateStage)[keyof typeof WorkflowUpdateStage];

/** A handle on one workflow (its current run unless a run id is given). */
export interface WorkflowHandle<T extends Workflow = Workflow> {
  readonly workflowId: string;
  /** The run this handle is pinned to, if any. */
  readonly runId: string | undefined;
  /** The first run of the chain this handle follows (set on handles a start returned). */
  readonly firstExecutionRunId: string | undefined;
  /**
   * Waits, as long as the run takes, for its result, following continue-as-new unless the handle
   * was made with `followRuns: false`.
   * @throws WorkflowFailedError when it failed, was cancelled, terminated or timed out (`cause` says how)
   * @throws WorkflowContinuedAsNewError when it continued as new and the handle does not follow runs
   * @throws WorkflowNotFoundError
   */
  result(): Promise<WorkflowResultType<T>>;
  /** Signals the run; with a definition (`defineSignal`) the arguments are type-checked. */
  signal<Args extends unknown[] = unknown[]>(signal: SignalDefinition<Args> | string, ...args: Args): Promise<void>;
  /** Asks a query handler; with a definition (`defineQuery`) the result and arguments are typed. */
  query<R = unknown, Args extends unknown[] = unknown[]>(query: QueryDefinition<R, Args> | string, ...args: Args): Promise<R>;
  executeUpdate<R = unknown, Args extends unknown[] = unknown[]>(update: UpdateDefinition<R, Args> | string, options?: { args?: Args; updateId?: string }): Promise<R>;
  /** Sends an update and returns once the workflow accepted it (`waitForStage: WorkflowUpdateStage.ACCEPTED`). */
  startUpdate<R = unknown, Args extends unknown[] = unknown[]>(
    update: UpdateDefinition<R, Args> | string,
    options: { args?: Args; updateId?: string; waitForStage: typeof WorkflowUpdateStage.ACCEPTED },
  ): Promise<WorkflowUpdateHandle<R>>;
  getUpdateHandle<R = unknown>(updateId: string): WorkflowUpdateHandle<R>;
  /** Asks the run to cancel (workflow code sees a `CancelledFailure` where it waits). */
  cancel(): Promise<void>;
  terminate(reason?: string): Promise<void>;
  describe(): Promise<WorkflowExecutionDescription>;
  /**
   * The run's events in order, with their payloads as bytes (Logbook's event shapes: `eventId`,
   * `eventTime`, `attributes.type`), as `Worker.runReplayHistory` takes them.
   */
  fetchHistory(): Promise<{ events: HistoryEvent[] }>;
}

/** Wraps each wait of `result()` (see `ClientOptions.aroundResultWait`). */
export type ResultWaitWrapper = <R>(wait: () => Promise<R>) => Promise<R>;

/** A handle made from the service's handle on the same run. */
export function compatibleHandle<T extends Workflow>(
  gateway: WorkflowService,
  aroundResultWait: ResultWaitWrapper | undefined,
  workflowId: string,
  runId: string | undefined,
  options: { firstExecutionRunId?: string; followRuns?: boolean } = {},
): WorkflowHandle<T> {
  // As in Temporal: signals, queries, updates, cancel, terminate and describe go to the handle's
  // run or, without one, the workflow's current run; result() follows the chain from its first run.
  const inner: GatewayHandle = gateway.getHandle(workflowId, runId);
  const chain: GatewayHandle = runId === undefined && options.firstExecutionRunId !== undefined ? gateway.getHandle(workflowId, options.firstExecutionRunId) : inner;
  const followRuns = options.followRuns ?? true;
  const notFound = <R>(call: Promise<R>): Promise<R> => call.catch((error: unknown) => Promise.reject(translated(error, workflowId, runId)));
  return {
    workflowId,
    runId,
    firstExecutionRunId: options.firstExecutionRunId,
    result: () => {
      const wait = () => resultOf<WorkflowResultType<T>>(chain, followRuns);
      return notFound(aroundResultWait ? aroundResultWait(wait) : wait());
    },
    signal: (signal, ...args) => notFound(inner.signal(nameOf(signal), ...args)),
    query: (query, ...args) => notFound(inner.query(nameOf(query), ...args)),
    executeUpdate: (update, updateOptions = {}) => notFound(inner.executeUpdate(nameOf(update), updateOptions as UpdateOptions)),
    startUpdate: (update, updateOptions) => {
      if (updateOptions?.waitForStage !== WorkflowUpdateStage.ACCEPTED) {
        return Promise.reject(new TypeError(`startUpdate waits for stage ACCEPTED (WorkflowUpdateStage.ACCEPTED); use executeUpdate to wait for ${String(updateOptions?.waitForStage)}`));
      }
      const { args, updateId } = updateOptions;
      return notFound(inner.startUpdate(nameOf(update), { waitForStage: 'ACCEPTED', ...(args ? { args } : {}), ...(updateId ? { updateId } : {}) }));
    },
    getUpdateHandle: (updateId) => inner.getUpdateHandle(updateId),
    cancel: () => notFound(inner.cancel()),
    terminate: (reason) => notFound(inner.terminate(reason)),
    describe: async () => {
      const described = (await notFound(inner.describe())) as { executionInfo: Parameters<typeof executionInfoOf>[0]; memo?: unknown; searchAttributes?: Parameters<typeof executionInfoOf>[1]['searchAttributes'] };
      return executionInfoOf(described.executionInfo, { memo: described.memo, searchAttributes: described.searchAttributes }, described);
    },
    fetchHistory: async () => ({ events: await notFound(gateway.fetchRawHistory(workflowId, runId)) }),
  };
}

/** The longest one wait of `result()`; it waits again until the run closes. */
const RESULT_WAIT = '1h';
/** The pause before asking again after an answer that says to retry. */
const RETRY_PAUSE_MS = 1_000;

async function resultOf<R>(handle: GatewayHandle, followRuns: boolean): Promise<R> {
  let outcome: WorkflowOutcome<R>;
  for (;;) {
    try {
      outcome = await handle.result<R>(RESULT_WAIT, { followRuns });
      break;
    } catch (error) {
      // Still running after the wait: Temporal's result() waits as long as the run takes.
      if (error instanceof WorkflowClientError && error.code === 'REPLY_TIMEOUT') continue;
      // A shard failing over or a busy gateway (503, 429): the run goes on; ask again shortly.
      if (error instanceof WorkflowClientError && error.retriable) {
        await delay(RETRY_PAUSE_MS);
        continue;
      }
      throw error;
    }
  }
  if (outcome.status === 'Completed') return outcome.result as R;
  throw closedRunError(outcome.status, outcome.failure as FailureJson | null, outcome.newExecutionRunId);
}

/** A not-found answer of the gateway as Temporal's `WorkflowNotFoundError`; anything else as it is. */
export function translated(error: unknown, workflowId: string, runId: string | undefined): unknown {
  if (error instanceof WorkflowClientError && (error.code === 'WorkflowNotFound' || error.code === 'RunNotFound')) {
    return new WorkflowNotFoundError(error.message, workflowId, runId);
  }
  return error;
}
