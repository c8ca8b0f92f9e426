/**
 * Walks a run's history in the shape the engine writes it (see the README beside this file):
 * results, timers, signals and cancel requests become activation jobs; each
 * `WorkflowTaskCompleted` triggers an activation (or, for the task this run just completed live,
 * reuses its commands) whose commands must match the command events recorded right after it.
 * @module
 */
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { HistoryEvent, HistoryEventType } from '../../topics/schemas/history-event/index.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { ActivationJob, ActivityResolution, WorkflowTaskFacts } from '../workflow/bridge.js';
import { FailureCode } from '../workflow/errors.js';
import { commandMatchesEvent, describeCommand, describeEvent, isCommandEvent, isRecordedAsEvent } from './command-events.js';
import { decodeOptional, decodePayloads, failureInfoFromFailure, type CommandContext } from './conversions.js';
import { isUpdateEvent, messageOfAccepted } from './update-messages.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';
import { EvictionRequiredError, HistoryShapeError, NonDeterminismError } from './errors.js';
import { isPatchUpsert, patchOf } from './patch-markers.js';
import { sideEffectOf } from './side-effect-markers.js';
import { localActivityOf, type LocalActivityOutcome, type LocalActivityRequest } from './local-activity-markers.js';
import { recordOutcomes, wantsLocalActivities, type ActivationStep } from './local-activity-steps.js';
import { childJobOf, type ChildAnswerEvent } from './child-events.js';
import type { WorkflowRunIdentity } from './workflow-run.js';

/** What the applier needs from its run. */
export interface RunState {
  readonly identity: WorkflowRunIdentity;
  readonly converter: DataConverter;
  startSandbox(started: HistoryEvent<'WorkflowExecutionStarted'>): void;
  runActivation(
    timeMs: number,
    isReplaying: boolean,
    task: WorkflowTaskFacts,
    jobs: ActivationJob[],
    lookups: Omit<CommandContext, 'converter'>,
  ): ActivationStep;
}

type Handlers = { [K in HistoryEventType]: (event: HistoryEvent<K>) => void };

/** The history-walking state of one run. */
export class HistoryApplier {
  lastEventId = 0;
  readonly #run: RunState;
  #jobs: ActivationJob[] = [];
  /** The workflow's "now" for the next activation: its WorkflowTaskScheduled time. */
  #taskTime = 0;
  /** The next activation's history facts: from its WorkflowTaskStarted (the worker synthesises it for a live task). */
  #taskFacts: WorkflowTaskFacts = { historyLength: 0, historySizeBytes: 0, continueAsNewSuggested: false };
  #openTask: number | null = null;
  /** Commands returned live, awaiting their WorkflowTaskCompleted in the next events. */
  #produced: { scheduledEventId: number; commands: WorkflowCommand[] } | null = null;
  #matching: { commands: WorkflowCommand[]; next: number } | null = null;
  /** The SDK markers of the task being completed, as jobs: replay gives them to the code before it runs. */
  #recordedMarkers: ActivationJob[] = [];
  /** The local-activity outcomes the task being completed recorded, by sequence number. */
  #recordedLocalActivities = new Map<number, LocalActivityOutcome>();
  /** The open task while it runs live with local activities: its commands so far. */
  #live: { scheduledEventId: number; commands: WorkflowCommand[] } | null = null;
  /** The updates the task being completed accepted, as jobs: replay delivers them after its other jobs. */
  #recordedUpdates: ActivationJob[] = [];
  /** Every update delivered to this run, by update id (the commands answering it name its request). */
  readonly #updates = new Map<string, UpdateRequestMessage>();
  /** A deprecated patch marker was skipped: skip its search attribute upsert too. */
  #skipPatchUpsert = false;
  readonly #seqByScheduledEventId = new Map<number, number>();
  readonly #scheduledEventIdBySeq = new Map<number, number>();
  /**
   * Signals and cancellation requests to other workflows carry no id of their own: the code
   * numbers them in issue order, so the n-th `…ExternalWorkflowExecutionInitiated` event is its
   * request n.
   */
  readonly #externalSeqByInitiatedEventId = new Map<number, number>();
  /** Children likewise: the n-th `StartChildWorkflowExecutionInitiated` event is child n. */
  readonly #childSeqByInitiatedEventId = new Map<number, number>();

  constructor(run: RunState) {
    this.#run = run;
  }

  /** Applies events in order; verifies the commands of every recorded workflow task. */
  applyAll(events: readonly HistoryEvent[]): void {
    for (const [index, event] of events.entries()) {
      // Update events sit among a completion's command events but answer protocol messages, which match no event.
      if (this.#matching !== null && !isCommandEvent(event) && !isUpdateEvent(event)) this.#endMatching(event);
      this.lastEventId = event.eventId;
      if (event.attributes.type === 'WorkflowTaskCompleted') {
        this.#recordedMarkers = this.#markersOfTask(events, index + 1);
        this.#recordedLocalActivities = this.#localActivitiesOfTask(events, index + 1);
        this.#recordedUpdates = this.#updatesOfTask(events, index + 1);
      }
      (this.#on[event.attributes.type] as (e: HistoryEvent) => void)(event);
    }
    this.#endMatching(null);
  }

  /**
   * Runs the workflow task left open by the events (live, not replaying), with its update
   * messages: its first activation.
   * While the step asks for local activities, run them and pass their outcomes to
   * {@link continueOpenTask}; then {@link finishOpenTask} returns the task's commands.
   */
  startOpenTask(messages: readonly UpdateRequestMessage[] = []): ActivationStep {
    const scheduledEventId = this.#openTask;
    if (scheduledEventId === null) {
      throw new HistoryShapeError(`no workflow task is open after event ${this.lastEventId}: the events must end with the task's WorkflowTaskScheduled`);
    }
    // The same task again (a redelivered task record): the code already ran for it and must not
    // run twice; the engine deduplicates the repeated completion.
    if (this.#produced?.scheduledEventId === scheduledEventId) {
      this.#live = { scheduledEventId, commands: this.#produced.commands };
      return { commands: this.#produced.commands, localActivities: [] };
    }
    for (const message of messages) {
      this.#updates.set(message.protocolInstanceId, message);
      this.#jobs.push(this.#updateJob(message, true));
    }
    const step = this.#step(false, this.#takeJobs());
    this.#live = { scheduledEventId, commands: [...step.commands] };
    return this.#pending(step);
  }

  /** Gives the outcomes of the local activities the last step asked for to the code (a next activation). */
  continueOpenTask(outcomes: readonly LocalActivityOutcome[]): ActivationStep {
    const live = this.#live;
    if (live === null) throw new Error('continueOpenTask() without startOpenTask()');
    const step = this.#step(false, recordOutcomes(live.commands, outcomes, this.#run.converter));
    live.commands.push(...step.commands);
    return this.#pending(step);
  }

  /** The open task's commands, kept to match against its WorkflowTaskCompleted when it is recorded. */
  finishOpenTask(): WorkflowCommand[] {
    const live = this.#live;
    if (live === null) throw new Error('finishOpenTask() without startOpenTask()');
    this.#live = null;
    this.#produced = { scheduledEventId: live.scheduledEventId, commands: live.commands };
    return live.commands;
  }

  // The step's local activities, unless the task's commands already close the run.
  #pending(step: ActivationStep): ActivationStep {
    return wantsLocalActivities(this.#live!.commands, step) ? step : { commands: step.commands, localActivities: [] };
  }

  #takeJobs(): ActivationJob[] {
    const jobs = this.#jobs;
    this.#jobs = [];
    return jobs;
  }

  readonly #updateOf = (updateId: string): UpdateRequestMessage => {
    const message = this.#updates.get(updateId);
    if (message === undefined) throw new HistoryShapeError(`the workflow answered update ${updateId}, which was never delivered to this run`);
    return message;
  };

  #updateJob(message: UpdateRequestMessage, runValidator: boolean): ActivationJob {
    const { updateId, name, args } = message.request;
    return { type: 'update', updateId, name, args: decodePayloads(this.#run.converter, args), runValidator };
  }

  readonly #scheduledEventIdOf = (seq: number): number => {
    const id = this.#scheduledEventIdBySeq.get(seq);
    if (id === undefined) throw new HistoryShapeError(`activity ${seq} is cancelled but its ActivityTaskScheduled event is not in history`);
    return id;
  };

  #step(isReplaying: boolean, jobs: ActivationJob[]): ActivationStep {
    return this.#run.runActivation(this.#taskTime, isReplaying, this.#taskFacts, jobs, { scheduledEventIdOf: this.#scheduledEventIdOf, updateOf: this.#updateOf });
  }

  // A recorded task: its activations, local activities resolved from the task's markers.
  #replayTask(): WorkflowCommand[] {
    let step = this.#step(true, this.#takeJobs());
    const commands = [...step.commands];
    while (wantsLocalActivities(commands, step)) {
      const outcomes = step.localActivities.map((request) => this.#recordedOutcome(request));
      step = this.#step(true, recordOutcomes(commands, outcomes, this.#run.converter));
      commands.push(...step.commands);
    }
    return commands;
  }

  #recordedOutcome(request: LocalActivityRequest): LocalActivityOutcome {
    const recorded = this.#recordedLocalActivities.get(request.seq);
    if (recorded !== undefined && recorded.activityType === request.activityType) return recorded;
    const found = `local activity ${request.activityType} #${request.seq}`;
    const expected = recorded === undefined ? null : `the outcome of local activity ${recorded.activityType} #${recorded.seq}`;
    throw this.#nonDeterminism(this.lastEventId, expected, found, 'the recorded workflow task has no sdk.local-activity marker for it');
  }

  #taskCompleted(event: HistoryEvent<'WorkflowTaskCompleted'>): void {
    const produced = this.#produced;
    this.#produced = null;
    if (produced !== null && produced.scheduledEventId !== event.attributes.scheduledEventId) {
      throw new EvictionRequiredError(
        `event ${event.eventId} completes workflow task ${event.attributes.scheduledEventId}, but this run completed task ${produced.scheduledEventId}`,
      );
    }
    if (produced === null) this.#jobs.unshift(...this.#recordedMarkers);
    if (produced === null) this.#jobs.push(...this.#recordedUpdates);
    const commands = produced?.commands ?? this.#replayTask();
    this.#matching = { commands, next: 0 };
    this.#openTask = null;
  }

  #taskDiscarded(event: HistoryEvent<'WorkflowTaskFailed' | 'WorkflowTaskTimedOut'>): void {
    // A task that failed in history never ran here; its jobs stay pending for the next one. But
    // if it is the task this run completed live, the run's state went past what history keeps.
    if (this.#produced === null) return;
    throw new EvictionRequiredError(
      `workflow task ${event.attributes.scheduledEventId} completed by this worker was discarded by the engine (${event.attributes.type}, event ${event.eventId})`,
    );
  }

  #commandEvent(event: HistoryEvent): void {
    const matching = this.#matching;
    if (matching === null) throw new HistoryShapeError(`command event ${event.eventId} (${describeEvent(event)}) does not follow a WorkflowTaskCompleted`);
    while (matching.next < matching.commands.length && !isRecordedAsEvent(matching.commands[matching.next]!)) matching.next++;
    if (this.#skipsPatchEvent(event, matching)) return;
    const command = matching.commands[matching.next];
    if (command === undefined || !commandMatchesEvent(command, event)) {
      throw this.#nonDeterminism(event.eventId, describeEvent(event), command === undefined ? null : describeCommand(command));
    }
    matching.next++;
    const type = event.attributes.type;
    if (type === 'SignalExternalWorkflowExecutionInitiated' || type === 'RequestCancelExternalWorkflowExecutionInitiated') {
      this.#externalSeqByInitiatedEventId.set(event.eventId, this.#externalSeqByInitiatedEventId.size + 1);
    }
    if (type === 'StartChildWorkflowExecutionInitiated') {
      this.#childSeqByInitiatedEventId.set(event.eventId, this.#childSeqByInitiatedEventId.size + 1);
    }
    if (event.attributes.type === 'ActivityTaskScheduled') {
      const seq = Number(event.attributes.activityId);
      this.#seqByScheduledEventId.set(event.eventId, seq);
      this.#scheduledEventIdBySeq.set(seq, event.eventId);
    }
  }

  /**
   * Temporal's patch rules: a deprecated patch marker the code no longer asks for is skipped with
   * its search attribute upsert (a non-deprecated one is a mismatch); a patch marker command
   * facing another event is dropped, since the code only issues it when the patch applies.
   */
  #skipsPatchEvent(event: HistoryEvent, matching: { commands: WorkflowCommand[]; next: number }): boolean {
    const skipUpsert = this.#skipPatchUpsert;
    this.#skipPatchUpsert = false;
    if (skipUpsert && isPatchUpsert(event)) return true;
    const command = matching.commands[matching.next];
    const recorded = patchOf(event);
    const issued = command === undefined ? null : patchOf(command);
    if (recorded !== null && recorded.patchId !== issued?.patchId && recorded.deprecated) {
      this.#skipPatchUpsert = true;
      return true;
    }
    if (issued !== null && recorded === null) {
      matching.next++;
      const upsert = matching.commands[matching.next];
      if (upsert !== undefined && isPatchUpsert(upsert) && !isPatchUpsert(event)) matching.next++;
    }
    return false;
  }

  #endMatching(next: HistoryEvent | null): void {
    const matching = this.#matching;
    if (matching === null) return;
    this.#matching = null;
    this.#skipPatchUpsert = false;
    const extra = matching.commands.slice(matching.next).find(isRecordedAsEvent);
    if (extra === undefined) return;
    const position = next?.eventId ?? this.lastEventId + 1;
    throw this.#nonDeterminism(position, next === null ? null : describeEvent(next), describeCommand(extra), 'the code produced more commands than were recorded');
  }

  #nonDeterminism(eventId: number, expected: string | null, found: string | null, hint?: string): NonDeterminismError {
    const { workflowType, workflowId, runId } = this.#run.identity;
    return new NonDeterminismError({ workflowType, workflowId, runId, eventId, expected, found }, hint);
  }

  // The patch and side-effect markers among the command events that start at `from`, as jobs.
  #markersOfTask(events: readonly HistoryEvent[], from: number): ActivationJob[] {
    const jobs: ActivationJob[] = [];
    for (let i = from; i < events.length && (isCommandEvent(events[i]!) || isUpdateEvent(events[i]!)); i++) {
      const a = events[i]!.attributes;
      if (a.type !== 'MarkerRecorded') continue;
      const patch = patchOf(events[i]!);
      if (patch !== null) jobs.push({ type: 'notifyHasPatch', patchId: patch.patchId });
      const sideEffect = sideEffectOf(a.markerName, a.details);
      if (sideEffect !== null) jobs.push({ type: 'resolveSideEffect', seq: sideEffect.seq, value: this.#run.converter.fromPayload(sideEffect.value) });
    }
    return jobs;
  }

  // The local-activity outcomes among the command events that start at `from`, by sequence number
  // (update events are among them: an update handler may run local activities).
  #localActivitiesOfTask(events: readonly HistoryEvent[], from: number): Map<number, LocalActivityOutcome> {
    const outcomes = new Map<number, LocalActivityOutcome>();
    for (let i = from; i < events.length && (isCommandEvent(events[i]!) || isUpdateEvent(events[i]!)); i++) {
      const a = events[i]!.attributes;
      const outcome = a.type === 'MarkerRecorded' ? localActivityOf(a.markerName, a.details, a.failure) : null;
      if (outcome !== null) outcomes.set(outcome.seq, outcome);
    }
    return outcomes;
  }

  // The updates accepted among the command events that start at `from`, as jobs (validators skipped).
  #updatesOfTask(events: readonly HistoryEvent[], from: number): ActivationJob[] {
    const jobs: ActivationJob[] = [];
    for (let i = from; i < events.length && (isCommandEvent(events[i]!) || isUpdateEvent(events[i]!)); i++) {
      const event = events[i]!;
      if (event.attributes.type !== 'WorkflowExecutionUpdateAccepted') continue;
      const message = messageOfAccepted(event as HistoryEvent<'WorkflowExecutionUpdateAccepted'>);
      this.#updates.set(message.protocolInstanceId, message);
      jobs.push(this.#updateJob(message, false));
    }
    return jobs;
  }

  #resolveActivity(scheduledEventId: number, resolution: ActivityResolution): void {
    const seq = this.#seqByScheduledEventId.get(scheduledEventId);
    if (seq === undefined) throw new HistoryShapeError(`a result for activity event ${scheduledEventId}, which is not an ActivityTaskScheduled of this run`);
    this.#jobs.push({ type: 'resolveActivity', seq, resolution });
  }

  #resolveExternal(initiatedEventId: number, failureCause: string | null): void {
    const seq = this.#externalSeqByInitiatedEventId.get(initiatedEventId);
    if (seq === undefined) throw new HistoryShapeError(`an outcome for external request event ${initiatedEventId}, which is not an …Initiated event of this run`);
    this.#jobs.push({ type: 'resolveExternal', seq, failureCause });
  }

  readonly #childAnswer = (event: ChildAnswerEvent): void => {
    const seq = this.#childSeqByInitiatedEventId.get(event.attributes.initiatedEventId);
    if (seq === undefined) throw new HistoryShapeError(`an answer for child event ${event.attributes.initiatedEventId}, which is not a StartChildWorkflowExecutionInitiated of this run`);
    this.#jobs.push(childJobOf(event, seq, this.#run.converter));
  };

  readonly #ignore = (): void => undefined;
  readonly #command = (event: HistoryEvent): void => this.#commandEvent(event);

  // Every event type is listed: a new one is a compile error until it is handled here.
  readonly #on: Handlers = {
    WorkflowExecutionStarted: (e) => {
      this.#run.startSandbox(e);
      this.#jobs.push({ type: 'startWorkflow', workflowType: this.#run.identity.workflowType, args: decodePayloads(this.#run.converter, e.attributes.input) });
    },
    WorkflowTaskScheduled: (e) => {
      this.#taskTime = e.eventTime;
      this.#openTask = e.eventId;
      // Until its WorkflowTaskStarted says more (a history cut after Scheduled): length only.
      this.#taskFacts = { ...this.#taskFacts, historyLength: e.eventId + 1, continueAsNewSuggested: false };
    },
    WorkflowTaskStarted: (e) => {
      const a = e.attributes;
      this.#taskFacts = { historyLength: e.eventId, historySizeBytes: a.historySizeBytes, continueAsNewSuggested: a.suggestContinueAsNew };
    },
    WorkflowTaskCompleted: (e) => this.#taskCompleted(e),
    WorkflowTaskFailed: (e) => this.#taskDiscarded(e),
    WorkflowTaskTimedOut: (e) => this.#taskDiscarded(e),
    ActivityTaskScheduled: this.#command,
    ActivityTaskStarted: this.#ignore,
    ActivityTaskCompleted: (e) =>
      this.#resolveActivity(e.attributes.scheduledEventId, { kind: 'completed', value: decodeOptional(this.#run.converter, e.attributes.result) }),
    ActivityTaskFailed: (e) =>
      this.#resolveActivity(e.attributes.scheduledEventId, {
        kind: 'failed',
        failure: failureInfoFromFailure(e.attributes.failure, this.#run.converter),
        retryState: e.attributes.retryState,
      }),
    ActivityTaskTimedOut: (e) => {
      const recorded = failureInfoFromFailure(e.attributes.failure, this.#run.converter);
      const failure = { ...recorded, code: FailureCode.Timeout, timeoutType: e.attributes.timeoutType };
      this.#resolveActivity(e.attributes.scheduledEventId, { kind: 'failed', failure, retryState: e.attributes.retryState });
    },
    ActivityTaskCancelRequested: this.#command,
    ActivityTaskCanceled: (e) => {
      const details = e.attributes.details === null ? [] : [decodeOptional(this.#run.converter, e.attributes.details)];
      const failure = { message: 'activity cancelled', code: FailureCode.Cancelled, stack: '', nonRetryable: false, details, cause: null };
      this.#resolveActivity(e.attributes.scheduledEventId, { kind: 'failed', failure, retryState: 'CancelRequested' });
    },
    TimerStarted: this.#command,
    TimerFired: (e) => void this.#jobs.push({ type: 'fireTimer', seq: Number(e.attributes.timerId) }),
    TimerCanceled: this.#command,
    WorkflowExecutionSignaled: (e) =>
      void this.#jobs.push({ type: 'signal', signalName: e.attributes.signalName, args: decodePayloads(this.#run.converter, e.attributes.input) }),
    WorkflowExecutionCancelRequested: (e) => void this.#jobs.push({ type: 'cancelWorkflow', reason: e.attributes.cause }),
    // The engine's own markers (history-limit warning) answer no command.
    MarkerRecorded: (e) => (isCommandEvent(e) ? this.#commandEvent(e) : undefined),
    UpsertWorkflowSearchAttributes: this.#command,
    WorkflowPropertiesModified: this.#command,
    WorkflowExecutionCompleted: this.#command,
    WorkflowExecutionFailed: this.#command,
    WorkflowExecutionCanceled: this.#command,
    // A hand-over by the engine after a run timeout (no workflow task behind it) is closed from outside.
    WorkflowExecutionContinuedAsNew: (e) => (e.attributes.initiator !== 'Workflow' && e.attributes.workflowTaskCompletedEventId === 0 ? undefined : this.#commandEvent(e)),
    StartChildWorkflowExecutionInitiated: this.#command,
    SignalExternalWorkflowExecutionInitiated: this.#command,
    RequestCancelExternalWorkflowExecutionInitiated: this.#command,
    SignalExternalWorkflowExecutionFailed: (e) => this.#resolveExternal(e.attributes.initiatedEventId, e.attributes.cause),
    ExternalWorkflowExecutionSignaled: (e) => this.#resolveExternal(e.attributes.initiatedEventId, null),
    RequestCancelExternalWorkflowExecutionFailed: (e) => this.#resolveExternal(e.attributes.initiatedEventId, e.attributes.cause),
    ExternalWorkflowExecutionCancelRequested: (e) => this.#resolveExternal(e.attributes.initiatedEventId, null),
    // Closed from outside: no workflow code runs any more.
    WorkflowExecutionTerminated: this.#ignore,
    WorkflowExecutionTimedOut: this.#ignore,
    // Delivered with the task that accepted them (#updatesOfTask); the handler's result is not replayed, it is recomputed.
    WorkflowExecutionUpdateAccepted: this.#ignore,
    WorkflowExecutionUpdateCompleted: this.#ignore,
    // Answers to a child's start, matched to the child by its initiated event (see child-events.ts).
    StartChildWorkflowExecutionFailed: this.#childAnswer,
    ChildWorkflowExecutionStarted: this.#childAnswer,
    ChildWorkflowExecutionCompleted: this.#childAnswer,
    ChildWorkflowExecutionFailed: this.#childAnswer,
    ChildWorkflowExecutionCanceled: this.#childAnswer,
    ChildWorkflowExecutionTimedOut: this.#childAnswer,
    ChildWorkflowExecutionTerminated: this.#childAnswer,
  };
}
