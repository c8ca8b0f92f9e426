import { LogbookError } from '../../../topics/errors.js';
import type { DataConverter } from '../../../topics/payload/index.js';
import type { ActivityTask } from '../../../topics/schemas/activity-task/index.js';
import { toRawView } from '../../../topics/wire/raw-view.js';
import { CancelledFailure } from '../../workflow/errors.js';
import { activityLogger, cancellationHelpers, runInActivityContext, type ActivityContext } from '../activity-context.js';
import { activityFunctionOf, activityInfoOf } from '../activity-invocation.js';
import type { ActivityEvent, ActivityWorkerOptions } from '../activity-worker.js';
import { CompleteAsyncError } from '../complete-async-error.js';
import { isTooLarge, tooLargeFailure } from '../oversized-output.js';
import { toFailure } from '../worker-connection.js';
import { isRetriableDecodeFailure } from '../worker-payloads.js';
import { GatewayAccessDeniedError, GatewayRefusedError, isUnreachable, wireFailure, type GatewayTaskClient, type PolledTask } from './gateway-task-client.js';
import { TaskPollers } from './task-pollers.js';

/** Long polls kept open for activity tasks. */
const ACTIVITY_POLLERS = 4;

/** What an HTTP activity worker takes of the Kafka worker's options (claims are the gateway's: the poll is the claim). */
export type HttpActivityWorkerOptions = Omit<ActivityWorkerOptions, 'onLag' | 'claimDelayMs' | 'maxActivitiesPerSecond'>;

/**
 * Runs a task queue's activities over the gateway's HTTP task endpoints. Each attempt runs with
 * the same context as on the Kafka path (info, heartbeat, cancellation signal, logger); its
 * heartbeats go to the gateway, whose answer says whether the activity was asked to cancel — as in
 * Temporal, an activity learns of a cancellation when it heartbeats.
 */
export class HttpActivityWorker {
  private pollers: TaskPollers<ActivityTask> | undefined;
  private readonly running = new Set<AbortController>();

  constructor(
    private readonly client: GatewayTaskClient,
    private readonly dataConverter: DataConverter,
    private readonly options: HttpActivityWorkerOptions,
  ) {}

  async start(): Promise<void> {
    const slots = this.options.maxConcurrentActivities ?? 100;
    this.pollers = new TaskPollers<ActivityTask>({ client: this.client, kind: 'activity', identity: this.options.identity, pollers: ACTIVITY_POLLERS, slots, run: (polled) => this.execute(polled) });
    this.pollers.start();
  }

  /** Stops polling, lets running activities finish for up to `graceMs`, then aborts the rest (they report failed, to be retried). */
  async stop(graceMs = 10_000): Promise<void> {
    const pollers = this.pollers;
    if (!pollers) return;
    if (await pollers.stop(graceMs)) return;
    this.running.forEach((c) => c.abort(new Error('worker shutting down')));
    // Their failures are sent now: a moment more for that.
    await pollers.stop(2_000);
  }

  /** Runs one attempt and reports how it ended: completed, failed, canceled, or left to async completion. */
  private async execute(polled: PolledTask<ActivityTask>): Promise<void> {
    const task = await this.decoded(polled);
    if (!task) return;
    try {
      await this.executeDecoded(polled.taskToken, task);
    } finally {
      // Every answer of the attempt is sent: its subject is not needed again.
      this.options.payloads?.forgetActivity(task);
    }
  }

  private async executeDecoded(taskToken: string, task: ActivityTask): Promise<void> {
    const abort = new AbortController();
    this.running.add(abort);
    let cancelled = false;
    let lastDetails: unknown;
    const started = Date.now();
    // Enforce start-to-close locally too, so a stuck attempt frees its slot.
    const limit = task.startToCloseTimeoutMs ?? task.scheduleToCloseTimeoutMs;
    const timer = limit ? setTimeout(() => abort.abort(new LogbookError('ACTIVITY_TIMED_OUT', `start-to-close of ${limit} ms elapsed`)), limit) : undefined;
    const onCancelRequested = () => {
      cancelled = true;
      abort.abort(new CancelledFailure('the activity was cancelled'));
    };
    let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await this.invoke(task, taskToken, abort.signal, (details) => (lastDetails = details), onCancelRequested) };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      clearTimeout(timer);
      this.running.delete(abort);
    }
    const report = (result: ActivityEvent['outcome']) =>
      this.options.onActivity?.({ activityType: task.activityType, attempt: task.attempt, durationMs: Date.now() - started, scheduleToStartMs: started - task.currentAttemptScheduledTime, outcome: result });
    if (!outcome.ok && outcome.error instanceof CompleteAsyncError && !cancelled) return report('async');
    if (outcome.ok) return report(await this.complete(taskToken, task, outcome.result));
    const details = lastDetails === undefined ? {} : { details: await this.wireValue(task, lastDetails) };
    if (cancelled) {
      await this.client.answer('activity-tasks/canceled', { taskToken, ...details });
      return report('canceled');
    }
    const lastHeartbeatDetails = lastDetails === undefined ? {} : { lastHeartbeatDetails: await this.wireValue(task, lastDetails) };
    await this.client.answer('activity-tasks/fail', { taskToken, failure: wireFailure(toFailure(outcome.error)), ...lastHeartbeatDetails });
    report('failed');
  }

  /** Sends the result; one that cannot be encoded or that the gateway refuses for good (too large) fails the activity without a retry. */
  private async complete(taskToken: string, task: ActivityTask, result: unknown): Promise<'completed' | 'failed'> {
    let failure;
    try {
      const payload = this.dataConverter.toPayload(result);
      const payloads = this.options.payloads;
      const encoded = payloads ? await payloads.encode(payload, payloads.activitySubject(task)) : payload;
      await this.client.answer('activity-tasks/complete', { taskToken, payload: toRawView(encoded) });
      return 'completed';
    } catch (error) {
      // The gateway unreachable past the retries, refusing the worker's credentials, or not taking this
      // gateway's token (a deployment whose nodes do not share --task-token-key): the result cannot be delivered, but
      // the activity did not fail; its attempt times out and the engine retries it.
      if (isUnreachable(error) || error instanceof GatewayAccessDeniedError || (error instanceof GatewayRefusedError && error.code === 'INVALID_TASK_TOKEN')) throw error;
      const tooLarge = isTooLarge(error) || (error instanceof GatewayRefusedError && (error.status === 413 || error.code === 'PayloadTooLarge'));
      failure = tooLarge ? tooLargeFailure(`the result of activity ${task.activityType} (id ${task.activityId})`, error as Error) : { ...toFailure(error), nonRetryable: true };
    }
    await this.client.answer('activity-tasks/fail', { taskToken, failure: wireFailure(failure) });
    return 'failed';
  }

  /**
   * The polled task with its payloads decoded, or null when they cannot be: the attempt is failed —
   * for good for a key erased or a tampered payload (the same bytes fail the same way), to be
   * retried for a key not found (see {@link isRetriableDecodeFailure}).
   */
  private async decoded({ taskToken, task }: PolledTask<ActivityTask>): Promise<ActivityTask | null> {
    if (!this.options.payloads) return task;
    try {
      return await this.options.payloads.decodeActivityTask(task);
    } catch (error) {
      try {
        await this.client.answer('activity-tasks/fail', { taskToken, failure: wireFailure({ ...toFailure(error), nonRetryable: !isRetriableDecodeFailure(error) }) });
      } finally {
        this.options.payloads.forgetActivity(task);
      }
      return null;
    }
  }

  /** A value for a JSON field of the task endpoints: as is, or encoded in a `{ $payload }` envelope when the worker has codecs. */
  private async wireValue(task: ActivityTask, value: unknown): Promise<unknown> {
    const payloads = this.options.payloads;
    return payloads ? payloads.envelope(value, payloads.activitySubject(task)) : value;
  }

  private async invoke(task: ActivityTask, taskToken: string, signal: AbortSignal, onDetails: (details: unknown) => void, onCancelRequested: () => void): Promise<unknown> {
    const fn = activityFunctionOf(this.options.activities, task);
    const args = task.input.map((p) => this.dataConverter.fromPayload(p)) as never[];
    const info = activityInfoOf(task, this.dataConverter);
    const throttleMs = this.options.heartbeatThrottleMs ?? 1_000;
    let lastSent = 0;
    // One heartbeat on the wire at a time, never retried: a later one carries newer details, and
    // a retried older one landing after it would make the engine keep the older details.
    let inFlight = false;
    const context: ActivityContext = {
      info,
      log: activityLogger(info),
      cancellationSignal: signal,
      ...cancellationHelpers(signal),
      heartbeat: (details) => {
        onDetails(details);
        const now = Date.now();
        if (inFlight || now - lastSent < throttleMs) return;
        lastSent = now;
        inFlight = true;
        // As in Temporal a heartbeat never throws; a lost one is followed by the next.
        void (details === undefined ? Promise.resolve({}) : this.wireValue(task, details).then((wire) => ({ details: wire })))
          .then((body) => this.client.once('activity-tasks/heartbeat', { taskToken, ...body }))
          .then((answer) => answer.cancelRequested === true && !signal.aborted && onCancelRequested())
          .catch(() => undefined)
          .finally(() => (inFlight = false));
      },
    };
    return runInActivityContext(context, () => fn(...args));
  }
}
