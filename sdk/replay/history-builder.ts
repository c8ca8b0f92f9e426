/**
 * Builds run histories in exactly the shape the engine writes, for tests: Started, then per task
 * Scheduled … Started + Completed + one event per command (in command order, each pointing at the
 * Completed), then what happened meanwhile (activity Started + result, TimerFired, signals, cancel
 * requests), then the next Scheduled. Feed `since(run.lastEventId)` to a cached run, or `events`
 * to a new one.
 * @module
 */
import { defaultDataConverter, type DataConverter } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { TimeoutType, WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent, HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import { HISTORY_LIMIT_WARNING_MARKER } from '../../topics/schemas/history-event/engine-markers.js';
import type { WorkflowRunIdentity } from './workflow-run.js';

/** Options of a {@link HistoryBuilder}; everything but the workflow type has a default. */
export interface HistoryBuilderOptions {
  workflowType: string;
  namespace?: string;
  workflowId?: string;
  runId?: string;
  taskQueue?: string;
  /** Epoch ms of event 1; default 2024-01-01T00:00:00Z. */
  startTime?: number;
  prngSeed?: number;
  attempt?: number;
  dataConverter?: DataConverter;
  /** The run this one continues (continue-as-new) and the chain's first run. */
  continuedFrom?: { runId: string; firstExecutionRunId: string };
  /** The memo the run starts with (values encoded by the data converter); default none. */
  memo?: Record<string, unknown>;
}

/** A synthetic history, one fluent call per engine step. */
export class HistoryBuilder {
  readonly events: HistoryEvent[] = [];
  readonly identity: WorkflowRunIdentity;
  /** Time of the next event (advance it with {@link HistoryBuilder.advance}). */
  now: number;
  readonly #options: HistoryBuilderOptions;
  readonly #converter: DataConverter;
  #scheduledTaskId = 0;
  #startedTaskId = 0;
  /** The scheduled task whose WorkflowTaskStarted {@link HistoryBuilder.startTask} already wrote. */
  #startedFor = 0;

  constructor(options: HistoryBuilderOptions) {
    this.#options = options;
    this.#converter = options.dataConverter ?? defaultDataConverter;
    this.now = options.startTime ?? Date.UTC(2024, 0, 1);
    this.identity = {
      namespace: options.namespace ?? 'default',
      workflowId: options.workflowId ?? `${options.workflowType}-1`,
      runId: options.runId ?? '00000000-0000-4000-8000-000000000001',
      workflowType: options.workflowType,
      taskQueue: options.taskQueue ?? 'test',
    };
  }

  /** Id of the last event. */
  get lastEventId(): number {
    return this.events.length;
  }

  /** The events after `eventId` (what a cached run at `lastEventId = eventId` has not seen). */
  since(eventId: number): HistoryEvent[] {
    return this.events.slice(eventId);
  }

  /** Moves the clock of the next events forward. */
  advance(ms: number): this {
    this.now += ms;
    return this;
  }

  /** `WorkflowExecutionStarted` with the encoded arguments, then the first `WorkflowTaskScheduled`. */
  start(...args: unknown[]): this {
    const o = this.#options;
    const { workflowType, taskQueue, runId } = this.identity;
    this.#add({
      type: 'WorkflowExecutionStarted', workflowType, taskQueue, input: args.map((a) => this.#converter.toPayload(a)),
      workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: 10_000, parent: null,
      continuedExecutionRunId: o.continuedFrom?.runId ?? null, initiator: o.continuedFrom ? 'Workflow' : null, continuedFailure: null,
      lastCompletionResult: null, originalExecutionRunId: runId, firstExecutionRunId: o.continuedFrom?.firstExecutionRunId ?? runId, identity: 'test', requestId: 'start-1', retryPolicy: null,
      attempt: o.attempt ?? 1, workflowExecutionExpirationTime: null, cronSchedule: null, firstWorkflowTaskBackoffMs: null,
      memo: Object.fromEntries(Object.entries(o.memo ?? {}).map(([key, value]) => [key, this.#converter.toPayload(value)])),
      searchAttributes: {}, header: {}, prngSeed: o.prngSeed ?? 42,
    });
    return this.scheduleTask();
  }

  /** `WorkflowTaskScheduled` (its time is the workflow's "now" in that task). */
  scheduleTask(attempt = 1): this {
    this.#scheduledTaskId = this.#add({ type: 'WorkflowTaskScheduled', taskQueue: this.identity.taskQueue, startToCloseTimeoutMs: 10_000, attempt });
    return this;
  }

  /**
   * `WorkflowTaskStarted` of the open task with the engine's history facts (as the engine records
   * it, or as a worker synthesises it for a live task); {@link completeTask} then writes only Completed.
   */
  startTask(facts: { suggestContinueAsNew?: boolean; historySizeBytes?: number } = {}): this {
    const scheduledEventId = this.#scheduledTaskId;
    this.#startedTaskId = this.#add({
      type: 'WorkflowTaskStarted', scheduledEventId, identity: 'test', requestId: `wft-${scheduledEventId}`,
      historySizeBytes: facts.historySizeBytes ?? 0, suggestContinueAsNew: facts.suggestContinueAsNew ?? false,
    });
    this.#startedFor = scheduledEventId;
    return this;
  }

  /** `WorkflowTaskStarted` (unless {@link startTask} wrote it) + `WorkflowTaskCompleted`, then one event per command. */
  completeTask(commands: readonly WorkflowCommand[]): this {
    const scheduledEventId = this.#scheduledTaskId;
    if (this.#startedFor !== scheduledEventId) this.startTask();
    const startedEventId = this.#startedTaskId;
    const completedId = this.#add({ type: 'WorkflowTaskCompleted', scheduledEventId, startedEventId, identity: 'test', sdkFlags: [], sdkName: null, sdkVersion: null });
    for (const command of commands) {
      const attributes = this.#commandEvent(command, completedId);
      if (attributes !== null) this.#add(attributes);
    }
    return this;
  }

  /** The engine's history-limit warning marker, right after the last task's command events. */
  historyWarning(): this {
    const completed = this.events.findLast((e) => e.attributes.type === 'WorkflowTaskCompleted');
    this.#add({
      type: 'MarkerRecorded', markerName: HISTORY_LIMIT_WARNING_MARKER, details: {}, header: {}, failure: null,
      workflowTaskCompletedEventId: completed?.eventId ?? 0,
    });
    return this;
  }

  /** `WorkflowTaskStarted` + `WorkflowTaskFailed` (a first attempt that failed). */
  failTask(cause: WorkflowTaskFailedCause = 'WorkflowWorkerUnhandledFailure'): this {
    const scheduledEventId = this.#scheduledTaskId;
    this.#startedTaskId = this.#add({ type: 'WorkflowTaskStarted', scheduledEventId, identity: 'test', requestId: `wft-${scheduledEventId}`, historySizeBytes: 0, suggestContinueAsNew: false });
    this.#add({ type: 'WorkflowTaskFailed', scheduledEventId, startedEventId: this.#startedTaskId, cause, failure: null, identity: 'test' });
    return this;
  }

  /** `ActivityTaskStarted` + `ActivityTaskCompleted` for the activity with this id. */
  activityCompleted(activityId: string, result?: unknown): this {
    const scheduledEventId = this.#activityScheduled(activityId);
    const startedEventId = this.#activityStarted(scheduledEventId);
    this.#add({ type: 'ActivityTaskCompleted', result: this.#converter.toPayload(result), scheduledEventId, startedEventId, identity: 'test' });
    return this;
  }

  /** `ActivityTaskStarted` + `ActivityTaskFailed` (retries exhausted or non-retryable). */
  activityFailed(activityId: string, failure: Partial<Failure> & { message: string }): this {
    const scheduledEventId = this.#activityScheduled(activityId);
    const startedEventId = this.#activityStarted(scheduledEventId);
    const full: Failure = { source: 'test', stackTrace: '', code: 'ApplicationFailure', nonRetryable: false, details: null, cause: null, ...failure };
    this.#add({ type: 'ActivityTaskFailed', failure: full, scheduledEventId, startedEventId, identity: 'test', retryState: 'MaximumAttemptsReached' });
    return this;
  }

  /** `ActivityTaskStarted` + `ActivityTaskCanceled` (the worker stopped after a cancellation request). */
  activityCanceled(activityId: string): this {
    const scheduledEventId = this.#activityScheduled(activityId);
    const requested = this.events.findLast((e) => e.attributes.type === 'ActivityTaskCancelRequested' && e.attributes.scheduledEventId === scheduledEventId);
    if (requested === undefined) throw new Error(`activity ${activityId} was not asked to cancel`);
    const startedEventId = this.#activityStarted(scheduledEventId);
    this.#add({ type: 'ActivityTaskCanceled', details: null, latestCancelRequestedEventId: requested.eventId, scheduledEventId, startedEventId, identity: 'test' });
    return this;
  }

  /** `ActivityTaskTimedOut` of a never-started activity. */
  activityTimedOut(activityId: string, timeoutType: TimeoutType = 'ScheduleToClose'): this {
    const scheduledEventId = this.#activityScheduled(activityId);
    const failure: Failure = { message: `activity timed out (${timeoutType})`, source: 'Logbook', stackTrace: '', code: 'TimeoutFailure', nonRetryable: false, details: null, cause: null };
    this.#add({ type: 'ActivityTaskTimedOut', failure, scheduledEventId, startedEventId: null, timeoutType, retryState: 'Timeout' });
    return this;
  }

  /** `TimerFired` for the timer with this id. */
  timerFired(timerId: string): this {
    const started = this.events.findLast((e) => e.attributes.type === 'TimerStarted' && e.attributes.timerId === timerId);
    if (started === undefined) throw new Error(`no TimerStarted with timerId ${timerId}`);
    this.#add({ type: 'TimerFired', timerId, startedEventId: started.eventId });
    return this;
  }

  /** `WorkflowExecutionSignaled`. */
  signal(signalName: string, ...args: unknown[]): this {
    const input = args.map((a) => this.#converter.toPayload(a));
    this.#add({ type: 'WorkflowExecutionSignaled', signalName, input, identity: 'test', header: {}, requestId: `signal-${this.lastEventId + 1}`, externalInitiator: null });
    return this;
  }

  /**
   * The engine's answer to the last signal or cancellation request sent to `workflowId`:
   * `ExternalWorkflowExecutionSignaled` / `…CancelRequested`, or the `…Failed` event with `failureCause`.
   */
  externalAnswered(workflowId: string, failureCause: 'ExternalWorkflowExecutionNotFound' | null = null): this {
    const initiated = this.events.findLast((e) =>
      (e.attributes.type === 'SignalExternalWorkflowExecutionInitiated' || e.attributes.type === 'RequestCancelExternalWorkflowExecutionInitiated')
      && e.attributes.workflowExecution.workflowId === workflowId);
    if (initiated === undefined) throw new Error(`no signal or cancellation request was sent to ${workflowId}`);
    const common = { initiatedEventId: initiated.eventId, namespace: 'default', workflowExecution: { workflowId, runId: null } };
    const isSignal = initiated.attributes.type === 'SignalExternalWorkflowExecutionInitiated';
    if (failureCause === null) this.#add({ type: isSignal ? 'ExternalWorkflowExecutionSignaled' : 'ExternalWorkflowExecutionCancelRequested', ...common });
    else this.#add({ type: isSignal ? 'SignalExternalWorkflowExecutionFailed' : 'RequestCancelExternalWorkflowExecutionFailed', cause: failureCause, workflowTaskCompletedEventId: 0, ...common });
    return this;
  }

  /** `ChildWorkflowExecutionStarted` for the last child started under `workflowId` (its run id is `<workflowId>-run`). */
  childStarted(workflowId: string): this {
    const initiated = this.#childInitiated(workflowId);
    this.#add({
      type: 'ChildWorkflowExecutionStarted', namespace: 'default', initiatedEventId: initiated.eventId,
      workflowExecution: { workflowId, runId: `${workflowId}-run` }, workflowType: initiated.attributes.workflowType, header: {},
    });
    return this;
  }

  /** `StartChildWorkflowExecutionFailed(WorkflowAlreadyExists)` for the last child started under `workflowId`. */
  childStartFailed(workflowId: string): this {
    const initiated = this.#childInitiated(workflowId);
    this.#add({
      type: 'StartChildWorkflowExecutionFailed', namespace: 'default', workflowId, workflowType: initiated.attributes.workflowType,
      cause: 'WorkflowAlreadyExists', initiatedEventId: initiated.eventId, workflowTaskCompletedEventId: initiated.attributes.workflowTaskCompletedEventId,
    });
    return this;
  }

  /** How the last child started under `workflowId` ended: Completed with `result`, or Canceled / Terminated. */
  childClosed(workflowId: string, status: 'Completed' | 'Canceled' | 'Terminated', result?: unknown): this {
    const initiated = this.#childInitiated(workflowId);
    const started = this.events.findLast((e) => e.attributes.type === 'ChildWorkflowExecutionStarted' && e.attributes.initiatedEventId === initiated.eventId);
    const common = {
      namespace: 'default', workflowExecution: { workflowId, runId: `${workflowId}-run` }, workflowType: initiated.attributes.workflowType,
      initiatedEventId: initiated.eventId, startedEventId: started?.eventId ?? 0,
    };
    if (status === 'Completed') this.#add({ type: 'ChildWorkflowExecutionCompleted', ...common, result: this.#converter.toPayload(result) });
    else if (status === 'Canceled') this.#add({ type: 'ChildWorkflowExecutionCanceled', ...common, details: null });
    else this.#add({ type: 'ChildWorkflowExecutionTerminated', ...common });
    return this;
  }

  #childInitiated(workflowId: string): HistoryEvent<'StartChildWorkflowExecutionInitiated'> {
    const initiated = this.events.findLast((e) => e.attributes.type === 'StartChildWorkflowExecutionInitiated' && e.attributes.workflowId === workflowId);
    if (initiated === undefined) throw new Error(`no child was started under ${workflowId}`);
    return initiated as HistoryEvent<'StartChildWorkflowExecutionInitiated'>;
  }

  /** `WorkflowExecutionCancelRequested`. */
  cancelRequested(cause = 'test cancel'): this {
    this.#add({ type: 'WorkflowExecutionCancelRequested', cause, externalInitiator: null, identity: 'test' });
    return this;
  }

  #activityScheduled(activityId: string): number {
    const scheduled = this.events.findLast((e) => e.attributes.type === 'ActivityTaskScheduled' && e.attributes.activityId === activityId);
    if (scheduled === undefined) throw new Error(`no ActivityTaskScheduled with activityId ${activityId}`);
    return scheduled.eventId;
  }

  #activityStarted(scheduledEventId: number): number {
    return this.#add({ type: 'ActivityTaskStarted', scheduledEventId, identity: 'test', requestId: `act-${scheduledEventId}`, attempt: 1, lastFailure: null });
  }

  // null: the command writes no event (an update rejection).
  #commandEvent(command: WorkflowCommand, workflowTaskCompletedEventId: number): HistoryEventAttributes | null {
    const c = workflowTaskCompletedEventId;
    switch (command.type) {
      case 'ScheduleActivityTask': {
        const { type: _type, taskQueue, ...rest } = command;
        return { ...rest, type: 'ActivityTaskScheduled', taskQueue: taskQueue ?? this.identity.taskQueue, workflowTaskCompletedEventId: c };
      }
      case 'RequestCancelActivityTask':
        return { type: 'ActivityTaskCancelRequested', scheduledEventId: command.scheduledEventId, workflowTaskCompletedEventId: c };
      case 'StartTimer':
        return { type: 'TimerStarted', timerId: command.timerId, startToFireTimeoutMs: command.startToFireTimeoutMs, workflowTaskCompletedEventId: c };
      case 'CancelTimer': {
        const started = this.events.findLast((e) => e.attributes.type === 'TimerStarted' && e.attributes.timerId === command.timerId);
        return { type: 'TimerCanceled', timerId: command.timerId, startedEventId: started?.eventId ?? 0, workflowTaskCompletedEventId: c, identity: 'test' };
      }
      case 'SignalExternalWorkflowExecution': {
        const { type: _type, namespace, workflowId, runId, ...rest } = command;
        return { ...rest, type: 'SignalExternalWorkflowExecutionInitiated', namespace: namespace ?? 'default', workflowExecution: { workflowId, runId }, workflowTaskCompletedEventId: c };
      }
      case 'RequestCancelExternalWorkflowExecution': {
        const { type: _type, namespace, workflowId, runId, ...rest } = command;
        return { ...rest, type: 'RequestCancelExternalWorkflowExecutionInitiated', namespace: namespace ?? 'default', workflowExecution: { workflowId, runId }, workflowTaskCompletedEventId: c };
      }
      case 'StartChildWorkflowExecution': {
        const { type: _type, namespace, taskQueue, ...rest } = command;
        return {
          ...rest, type: 'StartChildWorkflowExecutionInitiated', namespace: namespace ?? 'default', taskQueue: taskQueue ?? this.identity.taskQueue,
          workflowTaskCompletedEventId: c,
        };
      }
      case 'CompleteWorkflowExecution':
        return { type: 'WorkflowExecutionCompleted', result: command.result, workflowTaskCompletedEventId: c, newExecutionRunId: null };
      case 'FailWorkflowExecution':
        return { type: 'WorkflowExecutionFailed', failure: command.failure, retryState: 'RetryPolicyNotSet', workflowTaskCompletedEventId: c, newExecutionRunId: null };
      case 'CancelWorkflowExecution':
        return { type: 'WorkflowExecutionCanceled', details: command.details, workflowTaskCompletedEventId: c };
      case 'RecordMarker':
        return { type: 'MarkerRecorded', markerName: command.markerName, details: command.details, header: command.header, failure: command.failure, workflowTaskCompletedEventId: c };
      case 'UpsertWorkflowSearchAttributes':
        return { type: 'UpsertWorkflowSearchAttributes', searchAttributes: command.searchAttributes, workflowTaskCompletedEventId: c };
      case 'ModifyWorkflowProperties':
        return { type: 'WorkflowPropertiesModified', upsertedMemo: command.upsertedMemo, workflowTaskCompletedEventId: c };
      case 'ContinueAsNewWorkflowExecution':
        return {
          type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: '00000000-0000-4000-8000-000000000002', workflowType: command.workflowType,
          taskQueue: command.taskQueue ?? this.identity.taskQueue, input: command.input, workflowRunTimeoutMs: command.workflowRunTimeoutMs,
          workflowTaskTimeoutMs: command.workflowTaskTimeoutMs ?? 10_000, workflowTaskCompletedEventId: c, backoffStartIntervalMs: null,
          initiator: 'Workflow', failure: null, lastCompletionResult: null, header: command.header, memo: {}, searchAttributes: {},
        };
      case 'ProtocolMessage':
        return this.#updateEvent(command);
      default:
        throw new Error(`HistoryBuilder does not record ${(command as { type: string }).type} commands`);
    }
  }

  // The engine's update events: Accepted for an acceptance, Completed for a response, nothing for a rejection.
  #updateEvent(command: Extract<WorkflowCommand, { type: 'ProtocolMessage' }>): HistoryEventAttributes | null {
    const body = command.body;
    const updateId = command.protocolInstanceId;
    if (body.type === 'UpdateRejection') return null;
    if (body.type === 'UpdateAcceptance') {
      return {
        type: 'WorkflowExecutionUpdateAccepted', protocolInstanceId: updateId, acceptedRequestMessageId: body.acceptedRequestMessageId,
        acceptedRequestSequencingEventId: body.acceptedRequestSequencingEventId, acceptedRequest: body.acceptedRequest,
      };
    }
    const accepted = this.events.findLast((e) => e.attributes.type === 'WorkflowExecutionUpdateAccepted' && e.attributes.protocolInstanceId === updateId);
    return { type: 'WorkflowExecutionUpdateCompleted', updateId, acceptedEventId: accepted?.eventId ?? 0, identity: 'test', result: body.result, failure: body.failure };
  }

  #add(attributes: HistoryEventAttributes): number {
    const eventId = this.events.length + 1;
    this.events.push({ ...this.identity, eventId, eventTime: this.now, attributes } as HistoryEvent);
    return eventId;
  }
}
