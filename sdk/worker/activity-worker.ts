import { activityWorkersGroupId } from '../../topics/catalog.js';
import { randomUUID } from 'node:crypto';
import { LogbookError } from '../../topics/errors.js';
import type { LogRecord } from '../../topics/log/log.js';
import { activityControlCodec, activityTaskCodec } from '../../topics/serde/index.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import { ensureTaskTopics } from '../../topics/topic-setup.js';
import { NamespaceTopic } from '../../topics/namespaces/namespace-topic.js';
import { CancelledFailure } from '../workflow/errors.js';
import { activityFunctionOf, activityInfoOf } from './activity-invocation.js';
import { CompleteAsyncError } from './complete-async-error.js';
import { activityLogger, cancellationHelpers, runInActivityContext, type ActivityContext } from './activity-context.js';
import { ClaimConfirmer } from './claim-confirmer.js';
import { RecentCancellations } from './recent-cancellations.js';
import { CLAIM_DEFER_MS, claimUnlessAnsweredWithin, type DeferredClaim } from './deferred-claim.js';
import { ActivityDispatchRate } from './dispatch-rate.js';
import { TaskConsumer, type TaskDelivery } from './task-consumer.js';
import { TaskHandedBackError } from './task-handed-back-error.js';
import { isTooLarge, tooLargeFailure } from './oversized-output.js';
import { isPermanentWriteError } from './write-retry.js';
import { CommandWriter, toFailure, type RunRef, type WorkerConnection } from './worker-connection.js';
import { answerSignals, type AnswerSignals } from './answer-signals.js';
import type { CommandBody, TaskAttemptRef } from '../../topics/schemas/command/index.js';
import { isRetriableDecodeFailure, type WorkerPayloads } from './worker-payloads.js';

/** An activity implementation: any async function of JSON-serialisable arguments. */
export type ActivityFunction = (...args: never[]) => Promise<unknown>;

/** Options of an activity worker. */
export interface ActivityWorkerOptions {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly activities: Readonly<Record<string, ActivityFunction>>;
  /** Activities running at once; default 100. */
  readonly maxConcurrentActivities?: number;
  readonly identity: string;
  /** Minimum interval between heartbeats sent to the engine; default 1 s. */
  readonly heartbeatThrottleMs?: number;
  /** Observability hook (metrics): one call per finished attempt. */
  readonly onActivity?: (event: ActivityEvent) => void;
  readonly onLag?: (topic: string, partition: number, lag: number) => void;
  /** Most activities this worker starts per second (Temporal's `maxActivitiesPerSecond`); default unlimited. */
  readonly maxActivitiesPerSecond?: number;
  /** How long a first delivery runs before it is claimed, ms; default {@link CLAIM_DEFER_MS}, 0: at once. */
  readonly claimDelayMs?: number;
  /** The payload codecs applied around activity code: inputs decoded, results and details encoded under the input's subject. */
  readonly payloads?: WorkerPayloads;
}

/** What an activity attempt did, for metrics. */
export interface ActivityEvent {
  readonly activityType: string;
  readonly attempt: number;
  readonly durationMs: number;
  /** From the attempt being scheduled to this worker starting it. */
  readonly scheduleToStartMs: number;
  /**
   * `async`: the activity threw `CompleteAsyncError` (someone completes it later by its task token).
   * `superseded`: another claim holds the attempt, or it had already ended — a redelivered task
   * (not run), or one whose partition was handed back while it ran unclaimed (stopped, not answered).
   */
  readonly outcome: 'completed' | 'failed' | 'canceled' | 'superseded' | 'async';
}

/** The claim of an attempt the engine already accepted: nothing more to send. */
const CLAIMED: DeferredClaim = { now: () => undefined, drop: () => undefined, take: () => false };

/** About how long a worker whose partition was handed back waits for the engine to confirm the claim of an attempt it runs unclaimed. */
const HAND_BACK_CONFIRM_MS = 10_000;

/**
 * Runs activity tasks of one task queue. Each attempt runs without waiting for its claim, which
 * is sent only if the attempt outlasts the claim delay (the engine arms start-to-close and
 * heartbeat timeouts from the claim, and takes a result as the claim) — except a task that may be
 * a redelivery after a crash or rebalance, whose claim must be accepted first (see
 * ClaimConfirmer). Each runs with its context (idempotency key, heartbeat details of the previous
 * attempt, an AbortSignal) and reports its result. Claims and results are retried until written
 * while the task's partition is this worker's; a task left unanswered is handed back, not
 * committed past. Cancellations arrive
 * on the queue's control topic, which every worker reads.
 */
export class ActivityWorker {
  private readonly commands: CommandWriter;
  private readonly claims: ClaimConfirmer;
  private tasks: TaskConsumer | undefined;
  private control: TaskConsumer | undefined;
  private readonly running = new Map<string, AbortController>();
  private releaseNamespaces: (() => Promise<void>) | undefined;
  private rate: ActivityDispatchRate | undefined;

  constructor(
    private readonly connection: WorkerConnection,
    private readonly options: ActivityWorkerOptions,
  ) {
    const perSecond = options.maxActivitiesPerSecond;
    if (perSecond !== undefined && !(perSecond > 0)) throw new TypeError(`maxActivitiesPerSecond must be a positive number, got ${perSecond}`);
    const delay = options.claimDelayMs;
    if (delay !== undefined && !(Number.isFinite(delay) && delay >= 0)) throw new TypeError(`activityClaimDelayMs must be a number of milliseconds ≥ 0, got ${delay}`);
    const payloads = options.payloads;
    this.commands = payloads
      ? new CommandWriter(connection, (run, body) => payloads.encode(body, 'scheduledEventId' in body && 'attempt' in body ? payloads.activitySubject({ runId: run.runId, scheduledEventId: body.scheduledEventId, attempt: body.attempt }) : undefined))
      : new CommandWriter(connection);
    this.claims = new ClaimConfirmer(connection, this.commands);
  }

  async start(): Promise<void> {
    const { log, catalog } = this.connection;
    const { namespace, taskQueue, identity } = this.options;
    await ensureTaskTopics(log.admin, catalog, namespace, taskQueue);
    const topics = catalog.taskTopics(namespace, taskQueue);
    // The queue's rate is the namespace's (read live from the namespaces topic), shared by partition.
    const { topic: namespaces, release } = await NamespaceTopic.acquire(log, catalog, this.connection.serde);
    this.releaseNamespaces = release;
    // A shared reader may be a poll behind: a worker started after a change starts with it.
    await namespaces.catchUp();
    const partitions = (await log.admin.describeTopics([topics.activity])).get(topics.activity)?.partitions ?? 1;
    this.rate = new ActivityDispatchRate({
      ...(this.options.maxActivitiesPerSecond === undefined ? {} : { perWorker: this.options.maxActivitiesPerSecond }),
      perQueue: () => namespaces.get(namespace)?.taskQueueActivitiesPerSecond[taskQueue] ?? null,
      share: () => (this.tasks?.assignedPartitions() ?? 0) / partitions,
    });
    this.tasks = new TaskConsumer({
      log,
      topic: topics.activity,
      groupId: activityWorkersGroupId(catalog, namespace, taskQueue),
      identity,
      maxConcurrent: this.options.maxConcurrentActivities ?? 100,
      ordered: false,
      handle: (record, signal, delivery) => this.run(record, signal, delivery),
      ...(this.options.onLag ? { onLag: this.options.onLag } : {}),
    });
    // Every worker must see every cancellation: a group of its own.
    this.control = new TaskConsumer({
      log,
      topic: topics.control,
      groupId: `${catalog.prefix}-activity-control-${namespace}-${taskQueue}-${identity}-${randomUUID()}`,
      identity,
      maxConcurrent: 1,
      ordered: true,
      handle: (record) => this.cancel(record),
    });
    await this.control.start();
    await this.tasks.start();
  }

  /** Stops taking tasks, lets running activities finish for up to `graceMs`, then aborts the rest. */
  async stop(graceMs = 10_000): Promise<void> {
    const stopping = this.tasks?.stop(graceMs);
    setTimeout(() => this.running.forEach((c) => c.abort(new Error('worker shutting down'))), graceMs).unref();
    await stopping;
    await this.control?.stop(0);
    await this.claims.stop();
    await this.releaseNamespaces?.();
  }

  /**
   * Runs one activity task and answers it. Its claim, result or failure is retried while the
   * partition is this worker's; a task whose answer could not be written by then is handed back
   * (TaskHandedBackError), never committed past unanswered.
   */
  private async run(record: LogRecord, taken: AbortSignal, delivery: TaskDelivery): Promise<void> {
    if (!record.value) return;
    const task = await this.decoded(await this.connection.serde.decode(activityTaskCodec, record.value), taken);
    if (!task) return;
    try {
      await this.runDecoded(task, taken, delivery);
    } finally {
      // Every answer of the attempt is written (or it was handed back): its subject is not needed again.
      this.options.payloads?.forgetActivity(task);
    }
  }

  private async runDecoded(task: ActivityTask, taken: AbortSignal, delivery: TaskDelivery): Promise<void> {
    // Paced before the claim: a task waiting for its slot is still the queue's, not started.
    if (this.rate && !(await this.rate.acquire(taken))) throw new TaskHandedBackError(`activity ${task.activityId} was not started before its partition was handed back`);
    const run = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId };
    const ref = { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: this.options.identity };
    const signals = answerSignals(taken);
    try {
      const claim = await this.claim(task, run, ref, delivery, taken, signals);
      if (!claim) return;
      await this.execute(task, run, ref, claim, taken);
    } finally {
      signals.answer();
    }
  }

  /**
   * The task with its payloads decoded, or null when they cannot be: the attempt fails — for good
   * for a key erased or a tampered payload (the same bytes fail the same way every time), to be
   * retried for a key not found (see {@link isRetriableDecodeFailure}).
   */
  private async decoded(task: ActivityTask, taken: AbortSignal): Promise<ActivityTask | null> {
    if (!this.options.payloads) return task;
    try {
      return await this.options.payloads.decodeActivityTask(task);
    } catch (error) {
      const ref = { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: this.options.identity };
      const run = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId };
      try {
        await this.commands.writeUntilDone(run, { type: 'ActivityTaskFailed', ...ref, failure: { ...toFailure(error), nonRetryable: !isRetriableDecodeFailure(error) }, lastHeartbeatDetails: null }, taken);
      } finally {
        this.options.payloads.forgetActivity(task);
      }
      return null;
    }
  }

  /**
   * Claims the attempt; null when the engine refused the claim and the task must not run. A task
   * that may be a redelivery after a crash or rebalance is claimed first and run only if the engine
   * still has the attempt pending and no other claim holds it (one attempt has one holder); while
   * its shard fails over the claim is sent again until answered. A first delivery runs at once and
   * is claimed only if it is still running after the claim delay (the result implies the
   * claim) or at its first heartbeat; the write is retried until it lands or the result does. An
   * attempt with a schedule-to-start timeout is claimed at once: the claim is what stops that clock.
   * When the partition is handed back while the attempt runs unclaimed, its claim is sent and
   * confirmed (the redelivered task's next owner claims it too, and one attempt has one holder):
   * refused, the attempt here is stopped and reported superseded, nothing answered.
   */
  private async claim(task: ActivityTask, run: RunRef, ref: TaskAttemptRef, delivery: TaskDelivery, taken: AbortSignal, signals: AnswerSignals): Promise<DeferredClaim | null> {
    if (taken.aborted) throw new TaskHandedBackError(`activity ${task.activityId} was not started before its partition was handed back`);
    const claim = { type: 'ActivityTaskStarted' as const, ...ref };
    const { answered, answeredOrTaken: claiming } = signals;
    const send = () => this.commands.writeUntilDone(run, claim, claiming);
    if (!delivery.mayBeRedelivered) {
      const delayMs = this.options.claimDelayMs ?? CLAIM_DEFER_MS;
      const deferred = claimUnlessAnsweredWithin(delayMs, answered, send);
      if (task.scheduleToStartTimeoutMs !== null || delayMs === 0) deferred.now();
      else {
        // One listener per running task on the partition's signal (answerSignals allows many), removed once answered.
        taken.addEventListener('abort', () => this.confirmHandedBack(task, run, claim, deferred), { once: true, signal: answered });
      }
      return deferred;
    }
    // Accepted, this worker holds the attempt: it runs it even if the partition has moved on
    // meanwhile, since the next owner's claim will be refused.
    if ((await this.claims.confirm(run, claim, claiming)) === 'accepted') return CLAIMED;
    this.options.onActivity?.({ activityType: task.activityType, attempt: task.attempt, durationMs: 0, scheduleToStartMs: 0, outcome: 'superseded' });
    return null;
  }

  /**
   * The partition of an attempt running unclaimed was handed back: claims it for good, or stops it.
   * Its answer waits for this (see {@link execute}), so a refused attempt is never answered.
   */
  private confirmHandedBack(task: ActivityTask, run: RunRef, claim: CommandBody, deferred: DeferredClaim): void {
    if (!deferred.take()) return;
    const key = attemptKey(task);
    const confirming = this.claims
      .confirm(run, claim, AbortSignal.timeout(HAND_BACK_CONFIRM_MS))
      .then((answer) => {
        if (answer !== 'refused') return;
        this.superseded.add(key);
        this.running.get(key)?.abort(new LogbookError('ACTIVITY_SUPERSEDED', "the task's partition was handed back and its next owner holds the attempt"));
      })
      // Unanswered, the claim may have landed: the attempt goes on, as one claimed at once would.
      .catch(() => undefined)
      .finally(() => this.handBacks.delete(key));
    this.handBacks.set(key, confirming);
  }

  /** Runs the claimed attempt and writes its outcome (completed, failed or canceled). */
  private async execute(task: ActivityTask, run: RunRef, ref: TaskAttemptRef, claim: DeferredClaim, taken: AbortSignal): Promise<void> {
    const key = attemptKey(task);
    const abort = new AbortController();
    this.running.set(key, abort);
    // Asked to cancel before it started here: it is reported canceled without running.
    const cancelledBefore = this.recentCancellations.take(key);
    if (cancelledBefore !== undefined) this.abortCancelled(key, abort, cancelledBefore);
    // Enforce start-to-close locally too, so a stuck attempt frees its slot.
    const limit = task.startToCloseTimeoutMs ?? task.scheduleToCloseTimeoutMs;
    const timer = limit ? setTimeout(() => abort.abort(new LogbookError('ACTIVITY_TIMED_OUT', `start-to-close of ${limit} ms elapsed`)), limit) : undefined;
    let lastDetails: unknown;
    const started = Date.now();
    const report = (outcome: ActivityEvent['outcome']) =>
      this.options.onActivity?.({ activityType: task.activityType, attempt: task.attempt, durationMs: Date.now() - started, scheduleToStartMs: started - task.currentAttemptScheduledTime, outcome });
    let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
    let claimAsync = false;
    try {
      if (abort.signal.aborted) throw abort.signal.reason;
      outcome = { ok: true, result: await this.invoke(task, abort, claim, (details) => (lastDetails = details)) };
    } catch (error) {
      outcome = { ok: false, error };
      // Completed later by whoever holds the task token: its claim, unless already sent, is
      // written below and waited for (the attempt's timeouts run from it; a redelivered task
      // must find it held), and nothing else is.
      if (error instanceof CompleteAsyncError) claimAsync = claim.take();
    } finally {
      clearTimeout(timer);
      this.running.delete(key);
      // The answer written next implies the claim, even if its write takes a while under load.
      claim.drop();
    }
    await this.handBacks.get(key);
    const cancelled = this.cancelled.delete(key) && abort.signal.aborted;
    // Another worker holds the attempt now: it answers, this one does not.
    if (this.superseded.delete(key)) return report('superseded');
    if (!outcome.ok && outcome.error instanceof CompleteAsyncError && !cancelled) {
      if (claimAsync) await this.commands.writeUntilDone(run, { type: 'ActivityTaskStarted', ...ref }, taken);
      return report('async');
    }
    if (outcome.ok) {
      await this.complete(run, ref, task, outcome.result, taken);
      return report('completed');
    }
    const details = lastDetails === undefined ? null : this.connection.dataConverter.toPayload(lastDetails);
    if (cancelled) {
      await this.commands.writeUntilDone(run, { type: 'ActivityTaskCanceled', ...ref, details }, taken);
      return report('canceled');
    }
    await this.commands.writeUntilDone(run, { type: 'ActivityTaskFailed', ...ref, failure: toFailure(outcome.error), lastHeartbeatDetails: details }, taken);
    report('failed');
  }

  private readonly cancelled = new Set<string>();
  private readonly recentCancellations = new RecentCancellations();
  /** Attempts whose hand-back claim the engine refused: stopped, never answered. */
  private readonly superseded = new Set<string>();
  /** Hand-back claims being confirmed, by attempt key: the attempt's answer waits for them. */
  private readonly handBacks = new Map<string, Promise<void>>();

  /** Reports the result; one that can never be sent (too large, not serialisable) fails the activity for good instead. */
  private async complete(run: RunRef, ref: TaskAttemptRef, task: ActivityTask, result: unknown, taken: AbortSignal): Promise<void> {
    try {
      await this.commands.writeUntilDone(run, { type: 'ActivityTaskCompleted', ...ref, result: this.connection.dataConverter.toPayload(result) }, taken);
    } catch (error) {
      if (error instanceof TaskHandedBackError) throw error;
      const failure = isTooLarge(error)
        ? tooLargeFailure(`the result of activity ${task.activityType} (id ${task.activityId})`, error)
        : { ...toFailure(error), nonRetryable: isPermanentWriteError(error) };
      await this.commands.writeUntilDone(run, { type: 'ActivityTaskFailed', ...ref, failure, lastHeartbeatDetails: null }, taken);
    }
  }

  private async invoke(task: ActivityTask, abort: AbortController, claim: DeferredClaim, onDetails: (d: unknown) => void): Promise<unknown> {
    const fn = activityFunctionOf(this.options.activities, task);
    const converter = this.connection.dataConverter;
    const args = task.input.map((p) => converter.fromPayload(p)) as never[];
    const run = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId };
    const throttleMs = this.options.heartbeatThrottleMs ?? 1_000;
    let lastSent = 0;
    const info = activityInfoOf(task, converter);
    const context: ActivityContext = {
      info,
      log: activityLogger(info),
      cancellationSignal: abort.signal,
      ...cancellationHelpers(abort.signal),
      heartbeat: (details) => {
        onDetails(details);
        // While a hand-back claim waits for its answer, a heartbeat would claim the attempt under
        // another request id and get that claim refused: the details go with the next one.
        if (this.handBacks.has(attemptKey(task))) return;
        const now = Date.now();
        if (now - lastSent < throttleMs) return;
        lastSent = now;
        const payload = details === undefined ? null : converter.toPayload(details);
        // The claim is sent first, so the engine usually records it rather than the heartbeat as the
        // claim (a heartbeat landing first claims the attempt too; the claim is then refused, harmlessly).
        claim.now();
        const ref = { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: this.options.identity };
        void this.commands.write(run, { type: 'ActivityTaskHeartbeat', ...ref, details: payload }).catch(() => undefined);
      },
    };
    return runInActivityContext(context, () => fn(...args));
  }

  private async cancel(record: LogRecord): Promise<void> {
    if (!record.value) return;
    const control = await this.connection.serde.decode(activityControlCodec, record.value);
    const key = attemptKey(control);
    const reason = control.reason || 'the activity was cancelled';
    const running = this.running.get(key);
    if (running) this.abortCancelled(key, running, reason);
    else this.recentCancellations.remember(key, reason);
  }

  /** Aborts a running attempt that was asked to cancel, so it is reported canceled. */
  private abortCancelled(key: string, running: AbortController, reason: string): void {
    this.cancelled.add(key);
    // Temporal's reason: what `cancelled` rejects with and what an activity rethrows.
    running.abort(new CancelledFailure(reason));
  }
}

/** The key of an activity's running attempt (control records name the run and scheduled event). */
function attemptKey(task: Pick<ActivityTask, 'workflowId' | 'runId' | 'scheduledEventId'>): string {
  return `${task.workflowId}:${task.runId}:${task.scheduledEventId}`;
}
