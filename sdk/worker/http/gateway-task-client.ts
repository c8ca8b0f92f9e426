/**
 * The worker's side of the gateway's HTTP task endpoints (`/api/v1/namespaces/{ns}/task-queues/
 * {queue}/…`): long polls for workflow, activity and query tasks, and the answers to them. Records
 * travel in the raw view, so payloads and commands keep their bytes.
 * @module
 */
import { fromRawView } from '../../../topics/wire/raw-view.js';
import type { Failure } from '../../../topics/schemas/common/v1-records.js';
import type { GatewayAccess } from '../../common/gateway-access.js';

/** The kinds of task a queue hands out over HTTP. */
export type HttpTaskKind = 'workflow' | 'activity' | 'query';

/** A task handed to this poller, with the token its answer carries. */
export interface PolledTask<T> {
  readonly taskToken: string;
  readonly task: T;
}

/** The gateway refused a call for good (a 4xx): the message is the gateway's, naming the rule. */
export class GatewayRefusedError extends Error {
  constructor(
    readonly status: number,
    /** The gateway's error code, e.g. `INVALID_ARGUMENT`, `PayloadTooLarge`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayRefusedError';
  }
}

/**
 * The gateway refused the worker's credentials (401 `UNAUTHENTICATED`: no key, or one it does not
 * accept; 403 `PERMISSION_DENIED`: a key without this task queue). Retrying with the same key
 * changes nothing; a key set with `setApiKey` may.
 */
export class GatewayAccessDeniedError extends GatewayRefusedError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** The same refusal as this client's last call's, with no call served between: already reported. */
    readonly repeated: boolean,
  ) {
    super(status, code, message);
    this.name = 'GatewayAccessDeniedError';
  }
}

/**
 * How long a poll waits at the gateway before it answers "nothing". Short, so a worker that stops
 * lets its open polls end by themselves within a few seconds (see `TaskPollers`).
 */
const POLL_WAIT_MS = 5_000;
/** A poll's answer may come this long after its wait: the claim of the task it hands out included. */
const POLL_ANSWER_GRACE_MS = 10_000;
/** How long an answer is retried while no gateway takes it (a node restarting, a broker failing over). */
const ANSWER_RETRY_MS = 30_000;
/** How long one gateway has to answer one call, before the next gateway is asked. */
const CALL_TIMEOUT_MS = 10_000;
/** Statuses a proxy or a busy gateway answers for a while: the call is tried again, not refused. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * One task queue's HTTP task endpoints at one or more gateways: a call that one gateway does not
 * answer in time (refused, hung, 5xx) goes to the next, and the one that answered last is asked
 * first. Any gateway takes the answer to a task another handed out. Every call carries the
 * access's credentials.
 */
export class GatewayTaskClient {
  private readonly bases: string[];
  private preferred = 0;
  /** Whether any call was served: credentials refused before that never let this worker serve the queue. */
  private served = false;
  private lastRefused = false;
  private refuseAtStart: (error: GatewayAccessDeniedError) => void = () => undefined;
  /**
   * Settles with the refusal of the worker's credentials when it came before any call was served
   * (Temporal's worker fails at start on such an error); never settles otherwise.
   */
  readonly refusedAtStart = new Promise<GatewayAccessDeniedError>((resolve) => (this.refuseAtStart = resolve));

  constructor(
    private readonly gateways: GatewayAccess,
    private readonly namespace: string,
    private readonly taskQueue: string,
    /** Waits between retries, ms; tests shorten it. */
    private readonly retryPauseMs = 1_000,
  ) {
    const queue = `/api/v1/namespaces/${encodeURIComponent(namespace)}/task-queues/${encodeURIComponent(taskQueue)}`;
    this.bases = gateways.baseUrls.map((base) => `${base}${queue}`);
  }

  /**
   * Waits for a task of `kind`; undefined when none came within the gateway's wait.
   * @throws GatewayRefusedError for a poll the gateway refuses (a bad queue name);
   *   GatewayUnreachableError when no gateway answered, for the caller to pause and poll again
   */
  async poll<T>(kind: HttpTaskKind, identity: string): Promise<PolledTask<T> | undefined> {
    const response = await this.call(`${kind}-tasks/poll`, JSON.stringify({ identity, waitMs: POLL_WAIT_MS }), POLL_WAIT_MS + POLL_ANSWER_GRACE_MS);
    if (response.status === 204) return undefined;
    const body = (await response.json()) as { taskToken: string; task: unknown };
    return { taskToken: body.taskToken, task: fromRawView(body.task) as T };
  }

  /**
   * Sends a task's answer (`<kind>-tasks/<verb>`), retried across gateways while none takes it.
   * @returns the gateway's JSON answer
   * @throws GatewayRefusedError when a gateway refuses it (the answer is wrong, not the network)
   * @throws GatewayUnreachableError when no gateway took it within the retry time
   * @throws TypeError for a body that cannot be sent as JSON (a BigInt, a cycle): at once, not retried
   */
  async answer(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const text = JSON.stringify(body);
    const giveUpAt = Date.now() + ANSWER_RETRY_MS;
    for (;;) {
      try {
        return await this.json(path, text);
      } catch (error) {
        if (!isUnreachable(error) || Date.now() + this.retryPauseMs >= giveUpAt) throw error;
        await new Promise((r) => setTimeout(r, this.retryPauseMs));
      }
    }
  }

  /**
   * Sends a call once, to the gateways in turn, without retrying later (a heartbeat: the next one
   * carries newer details anyway).
   * @throws as {@link answer}, without its retries
   */
  async once(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.json(path, JSON.stringify(body));
  }

  private async json(path: string, text: string): Promise<Record<string, unknown>> {
    const response = await this.call(path, text, CALL_TIMEOUT_MS);
    const answer = await response.text();
    return answer ? (JSON.parse(answer) as Record<string, unknown>) : {};
  }

  /**
   * POSTs to the preferred gateway, then the others, each within `timeoutMs`; a timeout, a
   * network error, a 5xx or a transient 4xx moves on. The gateway that answers becomes the preferred one.
   */
  private async call(path: string, text: string, timeoutMs: number): Promise<Response> {
    let lastError: unknown;
    for (let i = 0; i < this.bases.length; i++) {
      const at = (this.preferred + i) % this.bases.length;
      try {
        const response = await this.gateways.fetch(`${this.bases[at]}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(timeoutMs) });
        if (response.status >= 500 || TRANSIENT_STATUSES.has(response.status)) {
          lastError = new Error(`${path} at ${this.bases[at]}: HTTP ${response.status} ${await response.text()}`);
          continue;
        }
        this.preferred = at;
        if (response.status === 401 || response.status === 403) throw this.accessDenied(path, response.status, refusalOf(await response.text()));
        if (response.status >= 400) {
          const refusal = refusalOf(await response.text());
          throw new GatewayRefusedError(response.status, refusal.code, `${path} refused (HTTP ${response.status}): ${refusal.message}`);
        }
        this.served = true;
        this.lastRefused = false;
        return response;
      } catch (error) {
        if (error instanceof GatewayRefusedError) throw error;
        lastError = error;
      }
    }
    // Next time, the next gateway first: the one asked first did not answer.
    this.preferred = (this.preferred + 1) % this.bases.length;
    throw new GatewayUnreachableError(`no gateway took ${path} (${this.bases.join(', ')}): ${(lastError as Error)?.message ?? String(lastError)}`, { cause: lastError });
  }

  /** The error of a refused credential, saying what the worker needs; the first one before any call was served settles {@link refusedAtStart}. */
  private accessDenied(path: string, status: number, refusal: { code: string; message: string }): GatewayAccessDeniedError {
    const code = refusal.code === 'Refused' ? (status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED') : refusal.code;
    const needs = `an apiKey (NativeConnection.connect({ apiKey }) or LOGBOOK_API_KEY) whose token holds taskQueues ["${this.namespace}:${this.taskQueue}"] or permissions ["${this.namespace}:worker"]`;
    const error = new GatewayAccessDeniedError(status, code, `the gateway refused this worker's ${path} on task queue ${this.taskQueue} of namespace ${this.namespace} (HTTP ${status} ${code}): ${refusal.message}. The worker needs ${needs}`, this.lastRefused);
    this.lastRefused = true;
    if (!this.served) this.refuseAtStart(error);
    return error;
  }
}

/** No gateway answered a call (refused connections, timeouts, 5xx answers). */
export class GatewayUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnreachableError';
  }
}

/** True for an error that says the gateways could not be reached, not that the call was wrong. */
export function isUnreachable(error: unknown): error is GatewayUnreachableError {
  return error instanceof GatewayUnreachableError;
}

/** A Failure as the task endpoints take it: its code as `type`, details left out (they are the worker's payloads). */
export function wireFailure(failure: Failure): Record<string, unknown> {
  return {
    message: failure.message,
    type: failure.code,
    source: failure.source,
    stackTrace: failure.stackTrace,
    nonRetryable: failure.nonRetryable,
    ...(failure.cause ? { cause: wireFailure(failure.cause) } : {}),
  };
}

/** The gateway's error body `{ code, message }`, or the text as the message. */
function refusalOf(text: string): { code: string; message: string } {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.message === 'string') return { code: typeof body.code === 'string' ? body.code : 'Refused', message: body.message };
  } catch {
    // Not JSON: a proxy's page, say; its text is the message.
  }
  return { code: 'Refused', message: text };
}
