import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { historyFromExport } from '../replay/history-export.js';
import { assertValid, namespaceProblem, optionalIdentifierProblem } from '../../topics/validation/index.js';
import { exchangeJson, gatewayCall, WorkflowClientError } from './gateway-call.js';
import { checkIdentifier, checkStartTarget, optionalDurationOption, waitOption } from './option-rules.js';
import type { WorkflowRetryOptions } from './workflow-retry-policy.js';
import { executeUpdateWithStart, startUpdateWithStart, workflowUpdateMethods, type UpdateExchange, type UpdateReference, type UpdateWithStartOptions, type WorkflowUpdateMethods } from './workflow-updates.js';
import type { ClientPayloads } from './client-payloads.js';
import { accessOf, type GatewayAccess, type GatewayClientOptions } from '../common/gateway-access.js';

export { WorkflowUpdateFailedError, type UpdateReference, type WorkflowUpdateHandle } from './workflow-updates.js';

export { WorkflowClientError } from './gateway-call.js';
export { InvalidArgumentError } from './option-rules.js';

/** The longest one HTTP call of `result()` waits by default: below the 5 minutes Node's fetch waits for an answer's headers. */
const DEFAULT_LONG_POLL_MS = 240_000;

/** Options of a start (durations in ms or strings like `'30s'`). */
export interface ClientStartOptions {
  readonly workflowId: string;
  readonly taskQueue: string;
  readonly args?: readonly unknown[];
  readonly requestId?: string;
  readonly workflowIdConflictPolicy?: 'Fail' | 'UseExisting' | 'TerminateExisting';
  readonly workflowIdReusePolicy?: 'AllowDuplicate' | 'AllowDuplicateFailedOnly' | 'RejectDuplicate';
  readonly workflowExecutionTimeout?: number | string;
  readonly workflowRunTimeout?: number | string;
  /** Typed search attributes at start, e.g. `{ CustomerTier: { type: 'Keyword', value: 'gold' } }` (Datetime: epoch ms or RFC 3339). */
  readonly searchAttributes?: Record<string, { type: string; value: unknown }>;
  readonly workflowTaskTimeout?: number | string;
  /** Non-indexed facts about the run (any JSON values); shown by describe and list, read by `workflowInfo().memo`. */
  readonly memo?: Record<string, unknown>;
  /** Retries failed (or run-timed-out) runs as new runs, e.g. `{ initialInterval: '1s', maximumAttempts: 3 }`; `result()` follows them. */
  readonly retryPolicy?: WorkflowRetryOptions;
  /** Runs the workflow on a cron schedule, e.g. `'*\/5 * * * *'` (UTC, or `'CRON_TZ=Europe/Paris 0 9 * * *'`); each run reads the last one's result in `workflowInfo().lastResult`. */
  readonly cronSchedule?: string;
}

/** How a run closed, and its result or failure. */
export interface WorkflowOutcome<T = unknown> {
  readonly runId: string;
  readonly status: string;
  readonly result: T | null;
  readonly failure: { message: string; code: string } | null;
  /** Set when the run continued as new (seen only with `followRuns: false`): the run that continues it. */
  readonly newExecutionRunId: string | null;
}

/** A handle on one workflow (its current run unless `runId` is given); updates: see `workflow-updates.ts`. */
export interface WorkflowHandle extends WorkflowUpdateMethods {
  readonly workflowId: string;
  readonly runId: string | undefined;
  signal(signalName: string, ...args: unknown[]): Promise<void>;
  cancel(reason?: string): Promise<void>;
  terminate(reason?: string): Promise<void>;
  /**
   * The run's mutable state: status, pending activities and timers, buffered events. For a run that
   * is no longer current (it continued as new) its summary row and how it ended (`newExecutionRunId`).
   */
  describe(): Promise<Record<string, unknown>>;
  /**
   * Resets the run (the handle's run, else the current one) to a workflow task — Temporal's
   * reset: a new run keeps the history up to that task's start and runs the workflow's current
   * code from there; later signals are re-applied and the old run, if open, is terminated with
   * reason `reset`. `eventId` names a WorkflowTaskCompleted (or Started, Failed, TimedOut) event;
   * the same `requestId` makes a retry return the same run. Resolves with the new run id. Fails
   * with a {@link WorkflowClientError} 400 `InvalidArgument` (not a workflow task event), 404
   * `WorkflowNotFound` / `RunNotFound` (only the current run can be reset).
   */
  reset(options: { eventId: number; reason?: string; requestId?: string }): Promise<string>;
  /** The run's events in order. */
  fetchHistory(): Promise<Array<{ eventId: number; eventTime: number; attributes: { type: string } & Record<string, unknown> }>>;
  /**
   * Waits for the run to close (up to `timeout`, at most 1 h) and returns how it closed. By default it follows
   * continue-as-new to the last run of the chain (Temporal's `followRuns`); with `followRuns:
   * false` a continued run answers status `ContinuedAsNew` and the `newExecutionRunId`.
   */
  result<T = unknown>(timeout?: string, options?: { followRuns?: boolean }): Promise<WorkflowOutcome<T>>;
  /**
   * Asks a query handler of the run and resolves with its result; nothing is written to history.
   * A closed run is replayed to answer. Fails with a {@link WorkflowClientError}: 400
   * `UnknownQuery` (the message lists the known queries) or `QueryFailed`, 404 `WorkflowNotFound`,
   * 504 `QUERY_TIMEOUT` when no worker answers within the client's `queryTimeout`.
   */
  query<R = unknown, Args extends unknown[] = unknown[]>(query: string | QueryReference<R, Args>, ...args: Args): Promise<R>;
}

/** A query as `defineQuery` names it in workflow code (only its name is used; the types carry through). */
export interface QueryReference<R = unknown, Args extends unknown[] = unknown[]> {
  readonly name: string;
  readonly __ret?: R;
  readonly __args?: Args;
}

/** A run as `list` returns it: its visibility row, times as RFC 3339 strings. */
export interface WorkflowExecutionInfo {
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly status: string;
  readonly startTime: string;
  readonly closeTime: string | null;
  readonly executionTime: string;
  readonly historyLength: number;
  readonly memo: unknown;
  readonly searchAttributes: Record<string, { type: string; value: unknown }>;
}

/** One page of a listing; `nextPageToken` is null on the last page. */
export interface WorkflowExecutionPage {
  readonly executions: WorkflowExecutionInfo[];
  readonly nextPageToken: string | null;
}

/**
 * The client Temporal users know, over the gateway's HTTP API: start, signalWithStart, and handles
 * to signal, query, cancel, terminate, describe, fetch history and await the result.
 *
 * @example
 * const client = new WorkflowClient({ address: 'http://127.0.0.1:8233', apiKey: process.env.LOGBOOK_API_KEY });
 * const handle = await client.start('order', { workflowId: 'order-1', taskQueue: 'orders', args: [order] });
 * await handle.signal('sellerPacked', { parcelId: 'p-1' });
 * const parcel = await handle.query(parcelQuery);   // or handle.query('parcel')
 * const { status, result } = await handle.result('60s');
 */
export class WorkflowClient {
  private readonly base: string;
  private readonly namespaceBase: string;
  /** The namespace's workflows in the gateway's API (`…/namespaces/{ns}/workflows`). */
  get workflowsUrl(): string {
    return this.base;
  }
  private readonly queryTimeout: string | number | undefined;
  private readonly namespace: string;
  private readonly longPollMs: number;
  private readonly payloads: ClientPayloads | undefined;
  private readonly access: GatewayAccess;

  /**
   * `queryTimeout` (ms or `'5s'`, at most 1 h): how long a query waits for a worker; default the
   * gateway's, 10 s. `longPollMs`: the longest one HTTP call of `result()` waits, default 4 min
   * (Node's fetch gives up on an answer whose headers take 5 min); a longer timeout is waited for
   * in several calls. `payloads`: the client's payload codecs (values sent encoded, answers decoded).
   * `apiKey` and `metadata` go with every call (or the `access` of a connection).
   * @throws InvalidArgumentError for a namespace that cannot be one or a query timeout that is not a wait
   */
  constructor(options: GatewayClientOptions & { namespace?: string; queryTimeout?: string | number; longPollMs?: number; payloads?: ClientPayloads } = {}) {
    this.payloads = options.payloads;
    this.access = accessOf(options);
    assertValid(namespaceProblem(options.namespace ?? 'default'));
    if (options.queryTimeout !== undefined) waitOption(options.queryTimeout, 'queryTimeout');
    this.longPollMs = options.longPollMs === undefined ? DEFAULT_LONG_POLL_MS : waitOption(options.longPollMs, 'longPollMs');
    this.namespace = options.namespace ?? 'default';
    this.namespaceBase = `${this.access.baseUrl}/api/v1/namespaces/${encodeURIComponent(options.namespace ?? 'default')}`;
    this.base = `${this.namespaceBase}/workflows`;
    this.queryTimeout = options.queryTimeout;
  }

  /**
   * The open runs of `workflowType` that have not recorded patch `patchId` (`patched` /
   * `deprecatePatch`): the runs that still need the old code path. Empty means the patch can be
   * deprecated. Lists the runs on the shards of the gateway node asked.
   */
  async openRunsLackingPatch(workflowType: string, patchId: string): Promise<{ workflowId: string; runId: string; startTime: string }[]> {
    const path = `/patches/${encodeURIComponent(patchId)}/open-runs-lacking?workflowType=${encodeURIComponent(workflowType)}`;
    return (await this.call<{ runs: [] }>('GET', path, undefined, this.namespaceBase)).runs;
  }

  /**
   * The runs matching a visibility query (README "Visibility: list and count"), newest start
   * first, fetched a page at a time as the iteration goes (Temporal's `client.workflow.list`).
   * A bad query fails with a {@link WorkflowClientError} 400 `INVALID_QUERY` naming the problem.
   */
  async *list(options: { query?: string; pageSize?: number } = {}): AsyncIterable<WorkflowExecutionInfo> {
    let nextPageToken: string | null = null;
    do {
      const page: WorkflowExecutionPage = await this.listPage({ ...options, ...(nextPageToken ? { nextPageToken } : {}) });
      yield* page.executions;
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
  }

  /** One page of {@link list}: pass the previous page's `nextPageToken` to get the next. */
  async listPage(options: { query?: string; pageSize?: number; nextPageToken?: string } = {}): Promise<WorkflowExecutionPage> {
    const params = new URLSearchParams({ query: options.query ?? '' });
    if (options.pageSize !== undefined) params.set('pageSize', String(options.pageSize));
    if (options.nextPageToken) params.set('nextPageToken', options.nextPageToken);
    return this.call<WorkflowExecutionPage>('GET', `?${params.toString()}`);
  }

  /** How many runs match a visibility query (every run when it is empty). */
  async count(query = ''): Promise<number> {
    return (await this.call<{ count: number }>('GET', `/workflow-count?query=${encodeURIComponent(query)}`, undefined, this.namespaceBase)).count;
  }

  /**
   * Starts a workflow; with conflict policy UseExisting the handle may point at an existing run.
   * @throws InvalidArgumentError before anything is sent, for a workflow id, type, task queue,
   *   request id, policy or timeout that breaks its rule (README "Limits")
   */
  async start(workflowType: string, options: ClientStartOptions): Promise<WorkflowHandle> {
    this.checkStart(workflowType, options);
    const { runId } = await this.call<{ runId: string }>('POST', '', { ...options, workflowType });
    return this.getHandle(options.workflowId, runId);
  }

  /** Signals the workflow, starting it first if no run is open. */
  async signalWithStart(workflowType: string, options: ClientStartOptions & { signal: string; signalArgs?: readonly unknown[] }): Promise<WorkflowHandle> {
    const { signal, signalArgs, ...start } = options;
    this.checkStart(workflowType, start);
    checkIdentifier(signal, 'signal');
    const { runId } = await this.call<{ runId: string }>('POST', `/${encodeURIComponent(options.workflowId)}/signal-with-start`, { ...start, workflowType, signalName: signal, signalArgs: signalArgs ?? [] });
    return this.getHandle(options.workflowId, runId);
  }

  /** Starts the workflow unless a run is open and delivers the update to the run in one command; resolves with the update's result. */
  async executeUpdateWithStart<R = unknown>(update: string | UpdateReference<R, never[]>, options: UpdateWithStartOptions): Promise<R> {
    this.checkStart(options.workflowType, options);
    return executeUpdateWithStart<R>(this.base, update, options, this.updateExchange);
  }

  /** As {@link executeUpdateWithStart}, but resolves once the workflow accepted the update: its id and the run it went to. */
  async startUpdateWithStart(update: string | UpdateReference<unknown, never[]>, options: UpdateWithStartOptions): Promise<{ updateId: string; runId: string | undefined }> {
    this.checkStart(options.workflowType, options);
    return startUpdateWithStart(this.base, update, options, this.updateExchange);
  }

  /**
   * A handle on an existing workflow.
   * @throws InvalidArgumentError for a workflow id or run id that could not be one
   */
  getHandle(workflowId: string, runId?: string): WorkflowHandle {
    checkIdentifier(workflowId, 'workflowId');
    assertValid(optionalIdentifierProblem(runId, 'runId'));
    const path = `/${encodeURIComponent(workflowId)}`;
    const run = runId ? { runId } : {};
    const runQuery = runId ? `?runId=${encodeURIComponent(runId)}` : '';
    return {
      workflowId,
      runId,
      ...workflowUpdateMethods(`${this.base}${path}`, workflowId, runId, this.updateExchange),
      signal: async (name, ...args) => {
        checkIdentifier(name, 'signalName');
        await this.call('POST', `${path}/signals/${encodeURIComponent(name)}`, { ...run, args });
      },
      cancel: async (reason) => void (await this.call('POST', `${path}/cancel`, { ...run, reason })),
      terminate: async (reason) => void (await this.call('POST', `${path}/terminate`, { ...run, reason })),
      describe: () => this.call('GET', `${path}${runQuery}`),
      reset: async (options) => {
        assertValid(optionalIdentifierProblem(options.requestId, 'requestId'));
        return (await this.call<{ runId: string }>('POST', `${path}/reset`, { ...run, ...options })).runId;
      },
      fetchHistory: async () => (await this.call<{ events: [] }>('GET', `${path}/history${runQuery}`)).events,
      result: async (timeout = '60s', options = {}) => this.awaitResult(path, runId, waitOption(timeout, 'timeout'), options.followRuns ?? true),
      query: async <R>(query: string | QueryReference, ...args: unknown[]) => {
        const name = typeof query === 'string' ? query : query.name;
        checkIdentifier(name, 'queryName');
        const timeout = this.queryTimeout === undefined ? {} : { timeout: this.queryTimeout };
        return (await this.call<{ result: R }>('POST', `${path}/query/${encodeURIComponent(name)}`, { ...run, ...timeout, args })).result;
      },
    };
  }

  /** The run's history in the lossless form (`?raw=1`), payloads as bytes, ready to replay. */
  async fetchRawHistory(workflowId: string, runId: string | undefined): Promise<HistoryEvent[]> {
    checkIdentifier(workflowId, 'workflowId');
    const exported = await this.call<{ events: unknown[] }>('GET', `/${encodeURIComponent(workflowId)}/history?raw=1${runId ? `&runId=${encodeURIComponent(runId)}` : ''}`);
    const events = historyFromExport(exported);
    return this.payloads ? this.payloads.decodeRecords(events) : events;
  }

  /**
   * Waits up to `timeoutMs` for the run's result, in calls of at most `longPollMs` each: a call
   * whose wait ends while the run is open answers its status `Running`, and the next call waits on.
   * @throws WorkflowClientError `REPLY_TIMEOUT` when the run is still open at the deadline
   */
  private async awaitResult<T>(path: string, runId: string | undefined, timeoutMs: number, followRuns: boolean): Promise<WorkflowOutcome<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const waitMs = Math.max(0, Math.min(this.longPollMs, deadline - Date.now()));
      const outcome = await this.call<WorkflowOutcome<T>>('GET', `${path}/result?timeout=${waitMs}ms&followRuns=${followRuns}${runId ? `&runId=${encodeURIComponent(runId)}` : ''}`);
      if (outcome.status !== 'Running') return outcome;
      if (Date.now() >= deadline) throw new WorkflowClientError('REPLY_TIMEOUT', `the run did not close within ${timeoutMs} ms; it is still running`, 504);
    }
  }

  /** The checks of a start's options, before anything is sent. */
  private checkStart(workflowType: string, options: ClientStartOptions): void {
    checkStartTarget({ ...options, namespace: this.namespace, workflowType });
    for (const field of ['workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout'] as const) optionalDurationOption(options[field], field);
  }

  private async call<T>(method: string, path: string, body?: unknown, base = this.base): Promise<T> {
    const payloads = this.payloads;
    if (!payloads) return gatewayCall<T>(method, `${base}${path}`, body, this.access);
    return payloads.decodeView(await gatewayCall<T>(method, `${base}${path}`, await payloads.encodeBody(body), this.access));
  }

  /** The update API's calls, through the payload codecs when the client has some. */
  private readonly updateExchange: UpdateExchange = async (method, url, body) => {
    const payloads = this.payloads;
    if (!payloads) return exchangeJson(method, url, body, this.access);
    const answer = await exchangeJson<{ result?: unknown }>(method, url, await payloads.encodeBody(body), this.access);
    return { ...answer, json: await payloads.decodeView(answer.json) };
  };
}
