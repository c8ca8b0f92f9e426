/**
 * Random-scenario support for the property tests: abstract actions ("claim the pending workflow
 * task", "fail the second pending activity", "advance 3 s") are turned into concrete inputs
 * against the state they meet, applying each as the processor would (due timers fired in order).
 * Test support only; pure like the machine.
 * @module
 */
import type { Command, CommandBodyOf, CommandType, WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { applyCommand } from './apply-command.js';
import { defaultHistoryConfig } from './config.js';
import { failure, json, retryPolicy, startBody, T0 } from './test-kit.js';
import type { TimerRef } from './timer-ref.js';
import { applyTimer, timersOf } from './timers.js';
import type { Transition } from './transition.js';

/** A workflow command to put in a completion, abstractly. */
export type CommandSpec =
  | { kind: 'activity'; startToClose: number | null; scheduleToClose: number | null; scheduleToStart: number | null; heartbeat: number | null; maxAttempts: number }
  | { kind: 'timer'; ms: number }
  | { kind: 'cancelTimer'; pick: number }
  | { kind: 'cancelActivity'; pick: number }
  | { kind: 'marker' }
  | { kind: 'close'; how: 'complete' | 'fail' | 'cancel' | 'continueAsNew' };

/** One abstract step of a scenario. */
export type Action =
  | { kind: 'start'; conflict: 'Fail' | 'UseExisting' | 'TerminateExisting' }
  | { kind: 'signal'; repeatLast: boolean }
  | { kind: 'claimWorkflowTask' }
  | { kind: 'completeWorkflowTask'; commands: CommandSpec[] }
  | { kind: 'failWorkflowTask' }
  | { kind: 'activity'; pick: number; what: 'claim' | 'heartbeat' | 'complete' | 'fail' | 'failFinal' | 'canceled' }
  | { kind: 'advance'; ms: number }
  | { kind: 'cancelRequest' }
  | { kind: 'terminate' }
  | { kind: 'await'; followRuns: boolean }
  | { kind: 'stale' };

/** A concrete input, as the processor would apply it. */
export type Input = { kind: 'command'; command: Command; now: number } | { kind: 'timer'; timer: TimerRef; now: number };

/** Applies a concrete input. */
export function applyInput(state: MutableStateSnapshot | null, input: Input): Transition {
  if (input.kind === 'command') return applyCommand(state, input.command, input.now, defaultHistoryConfig);
  if (!state) throw new Error('a timer input needs a state');
  return applyTimer(state, input.timer, input.now, defaultHistoryConfig);
}

/** Turns actions into concrete inputs, applying them as it goes; returns the inputs and their transitions. */
export class ScenarioRunner {
  state: MutableStateSnapshot | null = null;
  now = T0;
  readonly inputs: Input[] = [];
  readonly transitions: Transition[] = [];
  private seq = 0;
  private lastSignalId: string | null = null;

  run(actions: readonly Action[]): this {
    for (const action of actions) this.step(action);
    return this;
  }

  apply(input: Input): Transition {
    const transition = applyInput(this.state, input);
    this.inputs.push(input);
    this.transitions.push(transition);
    if (transition.changed) this.state = transition.state;
    return transition;
  }

  send<K extends CommandType>(type: K, body: Omit<CommandBodyOf<K>, 'type'>, requestId = `req-${++this.seq}`): Transition {
    const command = {
      requestId, namespace: 'default', workflowId: 'wf', runId: null, replyTo: { gatewayId: 'gw', requestId: `gw-${requestId}` },
      body: { type, ...body },
    } as unknown as Command;
    return this.apply({ kind: 'command', command, now: this.now });
  }

  /** Fires every due timer, earliest first (ties in a fixed order), until none is due. */
  fireDue(): void {
    for (;;) {
      const due = this.state ? timersOf(this.state, defaultHistoryConfig).filter((t) => t.fireTime <= this.now) : [];
      due.sort((a, b) => a.fireTime - b.fireTime || `${a.kind}/${a.identity}`.localeCompare(`${b.kind}/${b.identity}`));
      const next = due[0];
      if (!next) return;
      this.apply({ kind: 'timer', timer: next, now: this.now });
    }
  }

  private step(action: Action): void {
    const state = this.state;
    const running = state?.executionInfo.status === 'Running';
    switch (action.kind) {
      case 'start':
        this.send('StartWorkflowExecution', startBody({ runId: `run-${++this.seq}`, workflowIdConflictPolicy: action.conflict }));
        return;
      case 'advance':
        this.now += action.ms;
        this.fireDue();
        return;
      case 'stale':
        this.send('WorkflowTaskCompleted', { scheduledEventId: 2, attempt: 99, identity: 'w', commands: [], sdkFlags: [], sdkName: null, sdkVersion: null });
        return;
      default:
        if (state && running) this.onRun(state, action);
    }
  }

  private onRun(state: MutableStateSnapshot, action: Exclude<Action, { kind: 'start' | 'advance' | 'stale' }>): void {
    const task = state.pendingWorkflowTask;
    const ref = task && state.workflowTaskDispatched ? { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: 'w' } : null;
    switch (action.kind) {
      case 'signal': {
        const requestId = action.repeatLast && this.lastSignalId ? this.lastSignalId : `sig-${++this.seq}`;
        this.lastSignalId = requestId;
        this.send('SignalWorkflowExecution', { signalName: requestId, input: [json(requestId)], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false }, requestId);
        return;
      }
      case 'claimWorkflowTask':
        if (ref) this.send('WorkflowTaskStarted', ref);
        return;
      case 'completeWorkflowTask':
        if (ref) this.send('WorkflowTaskCompleted', { ...ref, commands: this.commandsOf(state, action.commands), sdkFlags: [], sdkName: null, sdkVersion: null });
        return;
      case 'failWorkflowTask':
        if (ref) this.send('WorkflowTaskFailed', { ...ref, cause: 'NonDeterministicError', failure: failure('NonDeterminism') });
        return;
      case 'activity':
        this.onActivity(state, action);
        return;
      case 'cancelRequest':
        this.send('RequestCancelWorkflowExecution', { identity: 'c', reason: 'r', externalInitiator: null, childWorkflowOnly: false });
        return;
      case 'terminate':
        this.send('TerminateWorkflowExecution', { reason: 'r', details: null, identity: 'ops' });
        return;
      case 'await':
        this.send('AwaitWorkflowExecutionResult', { followRuns: action.followRuns });
        return;
    }
  }

  private onActivity(state: MutableStateSnapshot, action: Extract<Action, { kind: 'activity' }>): void {
    const activity = state.pendingActivities[action.pick % Math.max(1, state.pendingActivities.length)];
    if (!activity) return;
    const ref = { scheduledEventId: activity.scheduledEventId, attempt: activity.attempt, identity: 'aw' };
    switch (action.what) {
      case 'claim': this.send('ActivityTaskStarted', ref); return;
      case 'heartbeat': this.send('ActivityTaskHeartbeat', { ...ref, details: json(this.seq) }); return;
      case 'complete': this.send('ActivityTaskCompleted', { ...ref, result: json('ok') }); return;
      case 'fail': this.send('ActivityTaskFailed', { ...ref, failure: failure('Boom'), lastHeartbeatDetails: null }); return;
      case 'failFinal': this.send('ActivityTaskFailed', { ...ref, failure: failure('Fatal', true), lastHeartbeatDetails: null }); return;
      case 'canceled': this.send('ActivityTaskCanceled', { ...ref, details: null }); return;
    }
  }

  private commandsOf(state: MutableStateSnapshot, specs: readonly CommandSpec[]): WorkflowCommand[] {
    const out: WorkflowCommand[] = [];
    for (const spec of specs) {
      const command = this.commandOf(state, spec);
      if (command) out.push(command);
    }
    return out;
  }

  private commandOf(state: MutableStateSnapshot, spec: CommandSpec): WorkflowCommand | null {
    const pick = <T>(items: readonly T[], i: number): T | undefined => items[i % Math.max(1, items.length)];
    switch (spec.kind) {
      case 'activity':
        return {
          type: 'ScheduleActivityTask', activityId: `a${++this.seq}`, activityType: 'work', taskQueue: null, header: {}, input: [],
          startToCloseTimeoutMs: spec.startToClose, scheduleToCloseTimeoutMs: spec.scheduleToClose,
          scheduleToStartTimeoutMs: spec.scheduleToStart, heartbeatTimeoutMs: spec.heartbeat,
          retryPolicy: retryPolicy({ maximumAttempts: spec.maxAttempts }),
        };
      case 'timer': return { type: 'StartTimer', timerId: `t${++this.seq}`, startToFireTimeoutMs: spec.ms };
      case 'cancelTimer': {
        const timer = pick(state.pendingTimers, spec.pick);
        return timer ? { type: 'CancelTimer', timerId: timer.timerId } : null;
      }
      case 'cancelActivity': {
        const activity = pick(state.pendingActivities, spec.pick);
        return activity ? { type: 'RequestCancelActivityTask', scheduledEventId: activity.scheduledEventId } : null;
      }
      case 'marker': return { type: 'RecordMarker', markerName: 'side-effect', details: { v: [json(this.seq)] }, header: {}, failure: null };
      case 'close':
        if (spec.how === 'complete') return { type: 'CompleteWorkflowExecution', result: json('done') };
        if (spec.how === 'fail') return { type: 'FailWorkflowExecution', failure: failure('WorkflowFailed') };
        if (spec.how === 'continueAsNew') {
          return {
            type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [json(this.seq)], workflowRunTimeoutMs: null,
            workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
          };
        }
        return { type: 'CancelWorkflowExecution', details: null };
    }
  }
}
