/**
 * `client.activity` of `logbook/client` (Temporal's `AsyncCompletionClient`): completes, fails,
 * heartbeats or reports cancelled an activity that threw `CompleteAsyncError`, named by its task
 * token (`activityInfo().taskToken`) or by workflow id, run id and activity id.
 * @module
 */
import { gatewayCall, WorkflowClientError } from '../gateway-call.js';
import type { Connection } from './connection.js';
import type { GatewayAccess } from '../../common/gateway-access.js';

/** An activity named by its ids instead of its task token (Temporal's `FullActivityId`). */
export interface FullActivityId {
  readonly workflowId: string;
  /** Default: the workflow's current run. */
  readonly runId?: string;
  readonly activityId: string;
}

/** The activity is not pending in that attempt: completed, timed out, retried, or its run closed. */
export class ActivityNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActivityNotFoundError';
  }
}

/** The workflow asked the activity to cancel: a heartbeat says so (report the cancellation, or fail). */
export class ActivityCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActivityCancelledError';
  }
}

/** Temporal's `AsyncCompletionClient`, over a gateway. */
export class AsyncCompletionClient {
  private readonly base: string;
  private readonly access: GatewayAccess;

  constructor(options: { connection: Connection; namespace?: string }) {
    this.access = options.connection.access;
    this.base = `${options.connection.baseUrl}/api/v1/namespaces/${encodeURIComponent(options.namespace ?? 'default')}/activities`;
  }

  /** Completes the activity with `result`. @throws ActivityNotFoundError */
  async complete(activity: Uint8Array | string | FullActivityId, result?: unknown): Promise<void> {
    await this.call('complete', activity, result === undefined ? {} : { result });
  }

  /** Fails the activity's attempt with `error` (retried per its policy unless non-retryable). @throws ActivityNotFoundError */
  async fail(activity: Uint8Array | string | FullActivityId, error: unknown): Promise<void> {
    const e = error as { message?: unknown; type?: unknown; name?: unknown; nonRetryable?: unknown; details?: unknown };
    const failure = {
      message: error instanceof Error ? error.message : String(e?.message ?? error),
      type: typeof e?.type === 'string' ? e.type : typeof e?.name === 'string' ? e.name : 'Error',
      nonRetryable: e?.nonRetryable === true,
      ...(Array.isArray(e?.details) ? { details: e.details } : {}),
    };
    await this.call('fail', activity, { failure });
  }

  /**
   * Records the activity as cancelled (after its workflow asked for that).
   * @throws ActivityNotFoundError; WorkflowClientError 409 `ActivityNotCancelRequested` when no cancellation was asked for
   */
  async reportCancellation(activity: Uint8Array | string | FullActivityId, details?: unknown): Promise<void> {
    await this.call('report-cancellation', activity, details === undefined ? {} : { details });
  }

  /**
   * Records a heartbeat with `details` (the next attempt reads them if this one fails).
   * @throws ActivityNotFoundError; ActivityCancelledError once the workflow asked the activity to cancel
   */
  async heartbeat(activity: Uint8Array | string | FullActivityId, details?: unknown): Promise<void> {
    const answer = await this.call('heartbeat', activity, details === undefined ? {} : { details });
    if (answer.cancelRequested) throw new ActivityCancelledError('the workflow asked the activity to cancel; report the cancellation (client.activity.reportCancellation) or complete it');
  }

  private async call(action: string, activity: Uint8Array | string | FullActivityId, body: Record<string, unknown>): Promise<{ cancelRequested?: boolean }> {
    const named = activity instanceof Uint8Array ? { taskToken: Buffer.from(activity).toString('base64') } : typeof activity === 'string' ? { taskToken: activity } : { ...activity };
    try {
      return await gatewayCall<{ cancelRequested?: boolean }>('POST', `${this.base}/${action}`, { ...named, ...body }, this.access);
    } catch (error) {
      if (error instanceof WorkflowClientError && error.code === 'ActivityNotFound') throw new ActivityNotFoundError(error.message);
      throw error;
    }
  }
}
