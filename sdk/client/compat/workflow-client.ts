/**
 * `client.workflow` of `logbook/client`: Temporal's `WorkflowClient` over a Logbook gateway —
 * start, execute, signal-with-start, update-with-start, handles, list and count, with workflows
 * named by their function or by name and options spelled as in `@temporalio/client`.
 * @module
 */
import { WorkflowExecutionAlreadyStartedError } from '../../workflow/errors.js';
import type { DataConverterOption } from '../../common/data-converter-option.js';
import type { Duration } from '../../workflow/duration.js';
import type { RetryOptions } from '../../workflow/activities.js';
import { searchAttributesOfPairs, TypedSearchAttributes, type SearchAttributePair } from '../../common/typed-search-attributes.js';
import { enginePolicies, type WorkflowIdConflictPolicy, type WorkflowIdReusePolicy } from '../../common/workflow-id-policies.js';
import { WorkflowClientError } from '../gateway-call.js';
import type { ClientStartOptions } from '../workflow-client.js';
import type { WorkflowService } from './workflow-service.js';
import type { WorkflowUpdateHandle } from '../workflow-updates.js';
import type { Connection } from './connection.js';
import { executionInfoOf, typedSearchAttributesAtStart, type TypedSearchAttribute, type WorkflowExecutionInfo } from './workflow-descriptions.js';
import { compatibleHandle, translated, WorkflowUpdateStage, type Named, type ResultWaitWrapper, type Workflow, type WorkflowHandle, type WorkflowResultType } from './workflow-handle.js';

/** Options of a start (Temporal's `WorkflowStartOptions`, the parts Logbook has). */
export interface WorkflowStartOptions<T extends Workflow = Workflow> {
  readonly workflowId: string;
  readonly taskQueue: string;
  readonly args?: Parameters<T> | readonly unknown[];
  /** Temporal's spellings (`'FAIL'`, `'USE_EXISTING'`, `'TERMINATE_EXISTING'`); Logbook's (`'Fail'`, …) work too. */
  readonly workflowIdConflictPolicy?: WorkflowIdConflictPolicy | 'Fail' | 'UseExisting' | 'TerminateExisting';
  readonly workflowIdReusePolicy?: WorkflowIdReusePolicy | 'AllowDuplicate' | 'AllowDuplicateFailedOnly' | 'RejectDuplicate';
  readonly workflowExecutionTimeout?: Duration;
  readonly workflowRunTimeout?: Duration;
  readonly workflowTaskTimeout?: Duration;
  /** Retries failed runs as new runs; `result()` follows them. */
  readonly retry?: RetryOptions;
  /** A cron schedule, in UTC unless it starts with `CRON_TZ=<zone>`; `result()` follows each run. */
  readonly cronSchedule?: string;
  readonly memo?: Record<string, unknown>;
  /** Untyped arrays by name, as Temporal's legacy form (typed by their values), or `{ type, value }`. */
  readonly searchAttributes?: Record<string, readonly unknown[] | TypedSearchAttribute>;
  /** Temporal's typed form: `{ key, value }` pairs (keys from `defineSearchAttributeKey`) or a `TypedSearchAttributes`. */
  readonly typedSearchAttributes?: TypedSearchAttributes | readonly SearchAttributePair[];
  /** Deduplicates the start: the same id returns the same run. */
  readonly requestId?: string;
  /** Whether the handle's `result()` follows continue-as-new and retries; default true. */
  readonly followRuns?: boolean;
}

/** Options of {@link WorkflowClient.signalWithStart}. */
export interface WorkflowSignalWithStartOptions<T extends Workflow = Workflow> extends WorkflowStartOptions<T> {
  readonly signal: Named;
  readonly signalArgs?: readonly unknown[];
}

/**
 * The start half of an update-with-start (Temporal's `WithStartWorkflowOperation`): the workflow to
 * start unless a run is open, given to `executeUpdateWithStart`; `workflowHandle()` resolves once
 * the call has run.
 */
export class WithStartWorkflowOperation<T extends Workflow = Workflow> {
  private settle!: { resolve: (handle: WorkflowHandle<T>) => void; reject: (error: unknown) => void };
  private readonly handle = new Promise<WorkflowHandle<T>>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor(
    readonly workflowTypeOrFunc: string | T,
    readonly options: WorkflowStartOptions<T> & { workflowIdConflictPolicy: WorkflowIdConflictPolicy | 'UseExisting' },
  ) {
    // Nobody may ask for the handle: a failed call is reported by the call itself.
    this.handle.catch(() => undefined);
  }

  /** The handle on the run the update went to. */
  workflowHandle(): Promise<WorkflowHandle<T>> {
    return this.handle;
  }

  /** @internal Called by the client once the update-with-start is answered. */
  settleWith(outcome: { handle: WorkflowHandle<T> } | { error: unknown }): void {
    if ('handle' in outcome) this.settle.resolve(outcome.handle);
    else this.settle.reject(outcome.error);
  }
}

/** Temporal's `WorkflowClient`, over a gateway or Kafka (reached through `client.workflow`). */
export class WorkflowClient {
  private readonly gateway: WorkflowService;
  private readonly aroundResultWait: ResultWaitWrapper | undefined;

  constructor(options: { connection: Connection; namespace?: string; aroundResultWait?: ResultWaitWrapper; dataConverter?: DataConverterOption }) {
    this.gateway = options.connection.workflowService(options.namespace ?? 'default', options.dataConverter);
    this.aroundResultWait = options.aroundResultWait;
  }

  /**
   * Starts a workflow, named by its function or by its type name.
   * @throws WorkflowExecutionAlreadyStartedError when a run with the id is open (conflict policy FAIL)
   * @throws TypeError / InvalidArgumentError for options that break a rule, before anything is sent
   */
  async start<T extends Workflow>(workflowTypeOrFunc: string | T, options: WorkflowStartOptions<T>): Promise<WorkflowHandle<T>> {
    const workflowType = workflowTypeName(workflowTypeOrFunc);
    const handle = await this.gateway.start(workflowType, gatewayStartOptions(options)).catch((error: unknown) => Promise.reject(alreadyStarted(error, options.workflowId, workflowType)));
    return compatibleHandle<T>(this.gateway, this.aroundResultWait, options.workflowId, undefined, { followRuns: options.followRuns ?? true, ...(handle.runId ? { firstExecutionRunId: handle.runId } : {}) });
  }

  /** Starts a workflow and waits for its result (`start` then `result()`). */
  async execute<T extends Workflow>(workflowTypeOrFunc: string | T, options: WorkflowStartOptions<T>): Promise<WorkflowResultType<T>> {
    return (await this.start(workflowTypeOrFunc, options)).result();
  }

  /** The result of a workflow's run (its current one unless `runId` is given). */
  async result<T extends Workflow = Workflow>(workflowId: string, runId?: string, options: { followRuns?: boolean } = {}): Promise<WorkflowResultType<T>> {
    return this.getHandle<T>(workflowId, runId, options).result();
  }

  /** A handle on a workflow; no call is made until one of its methods is. */
  getHandle<T extends Workflow = Workflow>(workflowId: string, runId?: string, options: { firstExecutionRunId?: string; followRuns?: boolean } = {}): WorkflowHandle<T> {
    return compatibleHandle<T>(this.gateway, this.aroundResultWait, workflowId, runId, options);
  }

  /** Signals the workflow, starting it first if no run is open. */
  async signalWithStart<T extends Workflow>(workflowTypeOrFunc: string | T, options: WorkflowSignalWithStartOptions<T>): Promise<WorkflowHandle<T>> {
    const workflowType = workflowTypeName(workflowTypeOrFunc);
    const { signal, signalArgs, ...start } = options;
    const signalName = typeof signal === 'string' ? signal : signal.name;
    const handle = await this.gateway
      .signalWithStart(workflowType, { ...gatewayStartOptions(start), signal: signalName, signalArgs: signalArgs ?? [] })
      .catch((error: unknown) => Promise.reject(alreadyStarted(error, options.workflowId, workflowType)));
    return compatibleHandle<T>(this.gateway, this.aroundResultWait, options.workflowId, undefined, { followRuns: options.followRuns ?? true, ...(handle.runId ? { firstExecutionRunId: handle.runId } : {}) });
  }

  /**
   * Starts the operation's workflow unless a run is open and delivers the update to the run in one
   * command; resolves with the update's result. The operation needs conflict policy USE_EXISTING.
   */
  async executeUpdateWithStart<R = unknown>(update: Named, options: { args?: unknown[]; updateId?: string; startWorkflowOperation: WithStartWorkflowOperation }): Promise<R> {
    const operation = options.startWorkflowOperation;
    const workflowType = workflowTypeName(operation.workflowTypeOrFunc);
    try {
      const result = await this.gateway.executeUpdateWithStart<R>(typeof update === 'string' ? update : update.name, {
        ...gatewayStartOptions(operation.options),
        workflowType,
        updateArgs: options.args ?? [],
        ...(options.updateId ? { updateId: options.updateId } : {}),
      });
      operation.settleWith({ handle: this.getHandle(operation.options.workflowId, undefined, { followRuns: operation.options.followRuns ?? true }) });
      return result;
    } catch (error) {
      operation.settleWith({ error });
      throw error;
    }
  }

  /**
   * Starts the operation's workflow unless a run is open and delivers the update to the run in one
   * command; resolves once the workflow accepted the update, with its handle.
   */
  async startUpdateWithStart<R = unknown>(
    update: Named,
    options: { args?: unknown[]; updateId?: string; waitForStage: typeof WorkflowUpdateStage.ACCEPTED; startWorkflowOperation: WithStartWorkflowOperation },
  ): Promise<WorkflowUpdateHandle<R>> {
    if (options.waitForStage !== WorkflowUpdateStage.ACCEPTED) throw new TypeError(`startUpdateWithStart waits for stage ACCEPTED; use executeUpdateWithStart to wait for ${String(options.waitForStage)}`);
    const operation = options.startWorkflowOperation;
    const workflowType = workflowTypeName(operation.workflowTypeOrFunc);
    try {
      const { updateId, runId } = await this.gateway.startUpdateWithStart(typeof update === 'string' ? update : update.name, {
        ...gatewayStartOptions(operation.options),
        workflowType,
        updateArgs: options.args ?? [],
        ...(options.updateId ? { updateId: options.updateId } : {}),
      });
      operation.settleWith({ handle: this.getHandle(operation.options.workflowId, undefined, { followRuns: operation.options.followRuns ?? true, ...(runId ? { firstExecutionRunId: runId } : {}) }) });
      return this.gateway.getHandle(operation.options.workflowId, runId).getUpdateHandle<R>(updateId);
    } catch (error) {
      operation.settleWith({ error });
      throw error;
    }
  }

  /** The runs a visibility query matches (every run when it is empty), newest first, a page at a time. */
  async *list(options: { query?: string; pageSize?: number } = {}): AsyncIterable<WorkflowExecutionInfo> {
    for await (const row of this.gateway.list(options)) yield executionInfoOf(row as unknown as Parameters<typeof executionInfoOf>[0], {}, row);
  }

  /** How many runs a visibility query matches (Temporal's `CountWorkflowExecutionsResponse` shape). */
  async count(query = ''): Promise<{ count: number; groups: [] }> {
    return { count: await this.gateway.count(query), groups: [] };
  }
}

/** A workflow's type name: the function's name, or the string given. */
function workflowTypeName(workflowTypeOrFunc: string | Workflow): string {
  const name = typeof workflowTypeOrFunc === 'string' ? workflowTypeOrFunc : workflowTypeOrFunc?.name;
  if (typeof name !== 'string' || name === '') throw new TypeError('a workflow is named by its type or by a named function (an anonymous function has no type name)');
  return name;
}

/** Temporal's start options as the gateway client's. */
function gatewayStartOptions(options: WorkflowStartOptions): ClientStartOptions {
  const untyped = typedSearchAttributesAtStart(options.searchAttributes as Record<string, unknown> | undefined);
  const pairs = options.typedSearchAttributes instanceof TypedSearchAttributes ? options.typedSearchAttributes.getAll() : options.typedSearchAttributes;
  const searchAttributes = untyped || pairs ? { ...untyped, ...(pairs ? searchAttributesOfPairs(pairs.filter((p) => p.value !== null)) : {}) } : undefined;
  const durations = (['workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout'] as const).filter((k) => options[k] !== undefined);
  return {
    workflowId: options.workflowId,
    taskQueue: options.taskQueue,
    args: options.args ?? [],
    ...enginePolicies(options.workflowIdConflictPolicy, options.workflowIdReusePolicy),
    ...Object.fromEntries(durations.map((k) => [k, options[k]])),
    ...(options.retry ? { retryPolicy: options.retry } : {}),
    ...(options.cronSchedule ? { cronSchedule: options.cronSchedule } : {}),
    ...(options.memo ? { memo: options.memo } : {}),
    ...(searchAttributes ? { searchAttributes } : {}),
    ...(options.requestId ? { requestId: options.requestId } : {}),
  };
}

/** The gateway's refusal of a start whose id is taken, as Temporal's error; other errors translated. */
function alreadyStarted(error: unknown, workflowId: string, workflowType: string): unknown {
  if (error instanceof WorkflowClientError && error.code === 'WorkflowExecutionAlreadyStarted') {
    return new WorkflowExecutionAlreadyStartedError(error.message, workflowId, workflowType);
  }
  return translated(error, workflowId, undefined);
}
