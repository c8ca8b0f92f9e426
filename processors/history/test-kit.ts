/**
 * Builders and a small driver for the state machine's tests: commands with defaults, and a
 * driver that keeps the state, the run's history and the dispatched tasks, and fires due timers
 * the way the processor does. Pure like the machine (time is whatever the test sets).
 * @module
 */
import type { Payload } from '../../topics/payload/payload.js';
import type {
  Command,
  CommandBodyOf,
  CommandType,
  StartWorkflowExecutionRequest,
  WorkflowCommand,
} from '../../topics/schemas/command/index.js';
import type { Failure, RetryPolicy } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { applyCommand } from './apply-command.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { applyTimer, timersOf } from './timers.js';
import type { TimerRef } from './timer-ref.js';
import type { TaskIntent, Transition, WorkflowTaskIntent } from './transition.js';

/** A fixed start of time for tests. */
export const T0 = 1_700_000_000_000;

/** A JSON payload. */
export function json(value: unknown): Payload {
  return { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify(value)) };
}

/** An application failure. */
export function failure(code: string, nonRetryable = false): Failure {
  return { message: `${code} happened`, source: 'TypeScriptSDK', stackTrace: '', code, nonRetryable, details: null, cause: null };
}

/** The body of a start, with overrides. */
export function startBody(overrides: Partial<StartWorkflowExecutionRequest> = {}): StartWorkflowExecutionRequest {
  return {
    runId: 'run-1', workflowType: 'order', taskQueue: 'orders', input: [json({ orderId: 42 })], identity: 'client',
    workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: 'AllowDuplicate', workflowExecutionTimeoutMs: null,
    workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, retryPolicy: null, cronSchedule: null,
    workflowStartDelayMs: null, memo: {}, searchAttributes: {}, header: {}, parent: null, ...overrides,
  };
}

/** A ScheduleActivityTask command with a 30 s start-to-close timeout, with overrides. */
export function scheduleActivity(
  activityId: string,
  overrides: Partial<Omit<Extract<WorkflowCommand, { type: 'ScheduleActivityTask' }>, 'type'>> = {},
): WorkflowCommand {
  return {
    type: 'ScheduleActivityTask', activityId, activityType: 'charge', taskQueue: null, header: {}, input: [json(activityId)],
    scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: null,
    retryPolicy: null, ...overrides,
  };
}

/** A retry policy with overrides (defaults: Temporal's). */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: null, maximumAttempts: 0, nonRetryableErrorTypes: [], ...overrides };
}

/** Options of one command sent through the driver. */
export interface SendOptions {
  requestId?: string;
  runId?: string | null;
  replyTo?: string;
}

/** Body of a command type without its tag. */
export type BodyOf<K extends CommandType> = Omit<CommandBodyOf<K>, 'type'>;

/**
 * Drives one workflow through the machine like the processor would: state in memory, time set by
 * the test, due timers fired in fire-time order.
 */
export class HistoryDriver {
  state: MutableStateSnapshot | null = null;
  /** Every event written, in order (all runs). */
  readonly events: HistoryEvent[] = [];
  readonly tasks: TaskIntent[] = [];
  /** Every command sent to other workflows (see {@link Transition.commands}), in order. */
  readonly outbox: Command[] = [];
  last: Transition | null = null;
  now = T0;
  private seq = 0;

  constructor(readonly config: HistoryConfig = defaultHistoryConfig, readonly workflowId = 'order-42') {}

  /** Applies a command; its request id is unique unless given. */
  send<K extends CommandType>(type: K, body: BodyOf<K>, options: SendOptions = {}): Transition {
    const command = {
      requestId: options.requestId ?? `req-${++this.seq}`, namespace: 'default', workflowId: this.workflowId,
      runId: options.runId ?? null, replyTo: options.replyTo ? { gatewayId: 'gw', requestId: options.replyTo } : null,
      body: { type, ...body },
    } as unknown as Command;
    return this.receive(command);
  }

  /** Applies a whole command, such as one another driver's workflow sent (its {@link outbox}). */
  receive(command: Command): Transition {
    return this.record(applyCommand(this.state, command, this.now, this.config));
  }

  /** Starts a run. */
  start(overrides: Partial<StartWorkflowExecutionRequest> = {}, options: SendOptions = {}): Transition {
    return this.send('StartWorkflowExecution', startBody(overrides), options);
  }

  /** The last workflow task dispatched. */
  lastWorkflowTask(): WorkflowTaskIntent {
    const task = [...this.tasks].reverse().find((t): t is WorkflowTaskIntent => t.type === 'WorkflowTask');
    if (!task) throw new Error('no workflow task was dispatched');
    return task;
  }

  /** Claims and completes the last dispatched workflow task with `commands`. */
  completeWorkflowTask(commands: WorkflowCommand[], claim = true): Transition {
    const { scheduledEventId, attempt } = this.lastWorkflowTask();
    if (claim) this.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'worker-1' });
    return this.send('WorkflowTaskCompleted', { scheduledEventId, attempt, identity: 'worker-1', commands, sdkFlags: [], sdkName: null, sdkVersion: null });
  }

  /** Moves time forward and fires every timer due by then, in fire-time order. */
  advance(ms: number): Transition[] {
    this.now += ms;
    const fired: Transition[] = [];
    for (;;) {
      const due = this.state ? timersOf(this.state, this.config).filter((t) => t.fireTime <= this.now).sort((a, b) => a.fireTime - b.fireTime) : [];
      const next = due[0];
      if (!next || !this.state) return fired;
      const transition = applyTimer(this.state, next, this.now, this.config);
      if (!transition.changed) throw new Error(`due timer ${next.kind} ${next.identity} did nothing`);
      fired.push(this.record(transition));
    }
  }

  /** The deadlines armed in the current state, as the processor indexes them. */
  timers(): TimerRef[] {
    return this.state ? timersOf(this.state, this.config) : [];
  }

  /** Event types of the current run (or of `runId`), in order. */
  types(runId = this.state?.executionInfo.runId): string[] {
    return this.events.filter((e) => e.runId === runId).map((e) => e.attributes.type);
  }

  private record(transition: Transition): Transition {
    this.last = transition;
    if (transition.changed) this.state = transition.state;
    this.events.push(...transition.events);
    this.tasks.push(...transition.tasks);
    this.outbox.push(...transition.commands);
    return transition;
  }
}
