/**
 * The worker's side of the gateway's HTTP task endpoints (`/api/v1/namespaces/{ns}/task-queues/
 * {queue}/…`): long polls for workflow, activity and query tasks, and the answers to them. Records
 * travel in the raw view, so payloads and commands keep their bytes.
 * @module
 */
import { fromRawView } from '../../../topics/wire/raw-view.js';
import type { Failure } from '../../../topics/schemas/common/v1-records.js';

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

/** How long a poll waits at the gateway before it answers "nothing" (the gateway caps it at 60 s). */
const POLL_WAIT_MS = 20_000;
/** A poll's answer may come this long after its wait: the claim of the task it hands out included. */
const POLL_ANSWER_GRACE_MS = 15_000;
/** How long an answer is retried while no gateway takes it (a node restarting, a broker failing over). */
const ANSWER_RETRY_MS = 30_000;
/** How long one answer call may take. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * One task queue's HTTP task endpoints at one or more gateways: a call that cannot reach one
 * gateway goes to the next, and the one that answered last is asked first. Any gateway takes the
 * answer to a task another handed out.
 */
export class GatewayTaskClient {
  private readonly bases: string[];
  private preferred = 0;

  constructor(
    endpoints: readonly string[],
    namespace: string,
    taskQueue: string,
    /** Waits between retries, ms; tests shorten it. */
    private readonly retryPauseMs = 1_000,
  ) {
    if (endpoints.length === 0) throw new TypeError('a gateway task client needs at least one gateway endpoint');
    const queue = `/api/v1/namespaces/${encodeURIComponent(namespace)}/task-queues/${encodeURIComponent(taskQueue)}`;
    this.bases = endpoints.map((e) => `${e.replace(/\/+$/, '')}${queue}`);
  }

  /**
   * Waits for a task of `kind`; undefined when none came within the gateway's wait or `signal`
   * aborted (the worker is stopping).
   * @throws GatewayRefusedError for a poll the gateway refuses (a bad queue name); network trouble is
   *   thrown as it is, for the caller to pause and poll again
   */
  async poll<T>(kind: HttpTaskKind, identity: string, signal: AbortSignal): Promise<PolledTask<T> | undefined> {
    const response = await this.call(`${kind}-tasks/poll`, { identity, waitMs: POLL_WAIT_MS }, AbortSignal.any([signal, AbortSignal.timeout(POLL_WAIT_MS + POLL_ANSWER_GRACE_MS)]));
    if (response.status === 204) return undefined;
    const body = (await response.json()) as { taskToken: string; task: unknown };
    return { taskToken: body.taskToken, task: fromRawView(body.task) as T };
  }

  /**
   * Sends a task's answer (`<kind>-tasks/<verb>`), retried across gateways while none takes it.
   * @returns the gateway's JSON answer
   * @throws GatewayRefusedError when a gateway refuses it (the answer is wrong, not the network)
   * @throws GatewayUnreachableError when no gateway took it within the retry time
   */
  async answer(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const giveUpAt = Date.now() + ANSWER_RETRY_MS;
    for (;;) {
      try {
        const response = await this.call(path, body, AbortSignal.timeout(CALL_TIMEOUT_MS));
        const text = await response.text();
        return text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch (error) {
        if (error instanceof GatewayRefusedError) throw error;
        if (Date.now() >= giveUpAt) throw isUnreachable(error) ? error : new GatewayUnreachableError(`${path}: no gateway answered within ${ANSWER_RETRY_MS} ms: ${(error as Error)?.message ?? String(error)}`, { cause: error });
        await new Promise((r) => setTimeout(r, this.retryPauseMs));
      }
    }
  }

  /** POSTs to the preferred gateway, then the others; a 5xx or a network error moves on. */
  private async call(path: string, body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    let lastError: unknown;
    for (let i = 0; i < this.bases.length; i++) {
      const at = (this.preferred + i) % this.bases.length;
      try {
        const response = await fetch(`${this.bases[at]}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
        if (response.status >= 500) {
          lastError = new Error(`${path} at ${this.bases[at]}: HTTP ${response.status} ${await response.text()}`);
          continue;
        }
        if (response.status >= 400) {
          const refusal = refusalOf(await response.text());
          throw new GatewayRefusedError(response.status, refusal.code, `${path} refused (HTTP ${response.status}): ${refusal.message}`);
        }
        this.preferred = at;
        return response;
      } catch (error) {
        if (error instanceof GatewayRefusedError || signal.aborted) throw error;
        lastError = error;
      }
    }
    throw new GatewayUnreachableError(`no gateway took ${path} (${this.bases.join(', ')}): ${(lastError as Error)?.message ?? String(lastError)}`, { cause: lastError });
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
