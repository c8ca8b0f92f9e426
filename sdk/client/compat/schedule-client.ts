/**
 * `client.schedule` of `logbook/client`, in the shapes of `@temporalio/client`'s `ScheduleClient`:
 * `create({ scheduleId, spec, action: { type: 'startWorkflow', … }, policies, state })`, handles
 * whose `update` is given the described schedule, `backfill({ start, end })`, an async-iterable
 * `list()` and `ScheduleOverlapPolicy`. Built on Logbook's schedule client of `../schedule-client.js`.
 * @module
 */
import type { Duration } from '../../workflow/duration.js';
import type { OverlapPolicy } from '../../schedules/schedule-definition.js';
import type { ScheduleDescription as LogbookDescription } from '../../schedules/scheduler-protocol.js';
import { WorkflowClientError } from '../gateway-call.js';
import { ScheduleClient as GatewayScheduleClient, type ScheduleDefinitionOptions, type ScheduleHandle as GatewayScheduleHandle } from '../schedule-client.js';
import type { Connection } from './connection.js';
import { cronOfCalendar, type CalendarSpec } from './schedule-calendars.js';
import type { Workflow } from './workflow-handle.js';

/** What to do when an action is due while the last one's workflow still runs (Temporal's `ScheduleOverlapPolicy`). */
export const ScheduleOverlapPolicy = {
  SKIP: 'SKIP',
  BUFFER_ONE: 'BUFFER_ONE',
  BUFFER_ALL: 'BUFFER_ALL',
  CANCEL_OTHER: 'CANCEL_OTHER',
  TERMINATE_OTHER: 'TERMINATE_OTHER',
  ALLOW_ALL: 'ALLOW_ALL',
} as const;
export type ScheduleOverlapPolicy = (typeof ScheduleOverlapPolicy)[keyof typeof ScheduleOverlapPolicy];

/** When a schedule acts (Temporal's `ScheduleSpec`, the parts Logbook has). */
export interface ScheduleSpec {
  readonly intervals?: ReadonlyArray<{ every: Duration; offset?: Duration }>;
  readonly cronExpressions?: readonly string[];
  /** Calendar specs; each becomes a cron expression (described as one). */
  readonly calendars?: readonly CalendarSpec[];
  /** IANA time zone of the cron expressions; default UTC. */
  readonly timezone?: string;
  readonly startAt?: Date;
  readonly endAt?: Date;
  readonly jitter?: Duration;
}

/** The workflow each action starts (Temporal's `ScheduleOptionsStartWorkflowAction`). */
export interface ScheduleStartWorkflowAction {
  readonly type: 'startWorkflow';
  readonly workflowType: string | Workflow;
  readonly taskQueue: string;
  /** Default: the schedule id; each run's id is `<workflowId>-<scheduled time>`. */
  readonly workflowId?: string;
  readonly args?: readonly unknown[];
  readonly memo?: Record<string, unknown>;
  readonly workflowExecutionTimeout?: Duration;
  readonly workflowRunTimeout?: Duration;
  readonly workflowTaskTimeout?: Duration;
}

/** How actions are taken. */
export interface SchedulePolicies {
  readonly overlap?: ScheduleOverlapPolicy;
  readonly catchupWindow?: Duration;
}

/** Options of {@link ScheduleClient.create} (Temporal's `ScheduleOptions`). */
export interface ScheduleOptions {
  readonly scheduleId: string;
  readonly spec: ScheduleSpec;
  readonly action: ScheduleStartWorkflowAction;
  readonly policies?: SchedulePolicies;
  readonly state?: {
    readonly paused?: boolean;
    readonly note?: string;
    readonly remainingActions?: number;
    /** Take an action as soon as the schedule exists. */
    readonly triggerImmediately?: boolean;
    /** Backfills to run once the schedule exists. */
    readonly backfill?: readonly Backfill[];
  };
}

/** What `update` returns: the schedule's new definition (Temporal's `ScheduleUpdateOptions`). */
export type ScheduleUpdateOptions = Omit<ScheduleOptions, 'scheduleId' | 'state'> & { readonly state?: { paused?: boolean; note?: string; remainingActions?: number } };

/** A past range whose action times are taken now (Temporal's `Backfill`). */
export interface Backfill {
  readonly start: Date;
  readonly end: Date;
  readonly overlap?: ScheduleOverlapPolicy;
}

/** An action the schedule took. */
export interface ScheduleExecutionResult {
  readonly scheduledAt: Date;
  readonly takenAt: Date;
  readonly action: { readonly type: 'startWorkflow'; readonly workflow: { readonly workflowId: string; readonly firstExecutionRunId: string } };
}

/** A schedule described (Temporal's `ScheduleDescription`). */
export interface ScheduleDescription {
  readonly scheduleId: string;
  readonly spec: ScheduleSpec;
  readonly action: ScheduleStartWorkflowAction & { readonly workflowType: string };
  readonly policies: { readonly overlap: ScheduleOverlapPolicy; readonly catchupWindow: number };
  readonly state: { readonly paused: boolean; readonly note: string; readonly remainingActions: number | undefined };
  readonly info: {
    readonly recentActions: readonly ScheduleExecutionResult[];
    readonly nextActionTimes: readonly Date[];
    readonly numActionsTaken: number;
    readonly numActionsMissedCatchupWindow: number;
    readonly numActionsSkippedOverlap: number;
    readonly runningActions: ReadonlyArray<{ readonly type: 'startWorkflow'; readonly workflow: { readonly workflowId: string; readonly firstExecutionRunId: string } }>;
    readonly createdAt: Date;
    readonly lastUpdatedAt: Date | undefined;
  };
  /** Logbook's own description this was made from. */
  readonly raw: LogbookDescription;
}

/** A schedule in a listing (Temporal's `ScheduleSummary`, the parts Logbook lists). */
export interface ScheduleSummary {
  readonly scheduleId: string;
  readonly action: { readonly type: 'startWorkflow'; readonly workflowType: string } | undefined;
  readonly createdAt: Date;
}

/** No schedule with that id in the namespace. */
export class ScheduleNotFoundError extends Error {
  constructor(
    message: string,
    readonly scheduleId: string,
  ) {
    super(message);
    this.name = 'ScheduleNotFoundError';
  }
}

/** A schedule with that id exists already. */
export class ScheduleAlreadyRunning extends Error {
  constructor(
    message: string,
    readonly scheduleId: string,
  ) {
    super(message);
    this.name = 'ScheduleAlreadyRunning';
  }
}

/** A handle on one schedule (Temporal's `ScheduleHandle`). */
export interface ScheduleHandle {
  readonly scheduleId: string;
  describe(): Promise<ScheduleDescription>;
  /** Replaces the schedule with what `updateFn` makes of its description. */
  update(updateFn: (previous: ScheduleDescription) => ScheduleUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  trigger(overlap?: ScheduleOverlapPolicy): Promise<void>;
  backfill(options: Backfill | readonly Backfill[]): Promise<void>;
  pause(note?: string): Promise<void>;
  unpause(note?: string): Promise<void>;
}

/** Temporal's `ScheduleClient`, over a gateway. */
export class ScheduleClient {
  private readonly gateway: GatewayScheduleClient;

  constructor(options: { connection: Connection; namespace?: string }) {
    this.gateway = new GatewayScheduleClient({ access: options.connection.access, namespace: options.namespace ?? 'default' });
  }

  /**
   * Creates a schedule, then takes the action at once and runs the backfills the state asks for.
   * @throws ScheduleAlreadyRunning when the id is taken
   */
  async create(options: ScheduleOptions): Promise<ScheduleHandle> {
    const { triggerImmediately, backfill, ...state } = options.state ?? {};
    await translated(options.scheduleId, this.gateway.create({ scheduleId: options.scheduleId, ...definitionOf({ ...options, state }) }));
    const handle = this.getHandle(options.scheduleId);
    if (triggerImmediately) await handle.trigger();
    if (backfill && backfill.length > 0) await handle.backfill(backfill);
    return handle;
  }

  /** The namespace's schedules. */
  async *list(): AsyncIterable<ScheduleSummary> {
    for (const entry of await this.gateway.list()) {
      yield {
        scheduleId: entry.scheduleId,
        action: entry.workflowType === null ? undefined : { type: 'startWorkflow', workflowType: entry.workflowType },
        createdAt: new Date(entry.createdAt),
      };
    }
  }

  /** A handle on a schedule; no call is made until one of its methods is. */
  getHandle(scheduleId: string): ScheduleHandle {
    const inner: GatewayScheduleHandle = this.gateway.getHandle(scheduleId);
    const call = <T>(work: Promise<T>) => translated(scheduleId, work);
    const describe = async () => descriptionOf(await call(inner.describe()));
    return {
      scheduleId,
      describe,
      update: async (updateFn) => {
        const next = updateFn(await describe());
        await call(inner.update(definitionOf(next)));
      },
      delete: () => call(inner.delete()),
      trigger: (overlap) => call(inner.trigger(overlap)),
      backfill: (options) => {
        const ranges = (Array.isArray(options) ? options : [options]) as readonly Backfill[];
        return call(inner.backfill(...ranges.map((r) => ({ startAt: r.start, endAt: r.end, ...(r.overlap ? { overlap: r.overlap } : {}) }))));
      },
      pause: (note) => call(inner.pause(note)),
      unpause: (note) => call(inner.unpause(note)),
    };
  }
}

/** Temporal's schedule options as Logbook's definition. */
function definitionOf(options: ScheduleUpdateOptions): ScheduleDefinitionOptions {
  const { spec, action, policies, state } = options;
  refuseUnsupported(spec, policies);
  const cronExpressions = [...(spec.cronExpressions ?? []), ...(spec.calendars ?? []).map((c, i) => cronOfCalendar(c, `spec.calendars[${i}]`))];
  if (action?.type !== 'startWorkflow') throw new TypeError(`a schedule's action must be { type: 'startWorkflow', … }; got type ${JSON.stringify(action?.type)}`);
  const workflowType = typeof action.workflowType === 'string' ? action.workflowType : action.workflowType?.name;
  if (!workflowType) throw new TypeError("a schedule's action names its workflow by type or by a named function");
  const optional = (['workflowId', 'args', 'memo', 'workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout'] as const).filter((k) => action[k] !== undefined);
  return {
    spec: {
      ...(spec.intervals ? { intervals: spec.intervals } : {}),
      ...(cronExpressions.length > 0 ? { cronExpressions } : {}),
      ...(spec.timezone ? { timeZone: spec.timezone } : {}),
      ...(spec.startAt ? { startAt: spec.startAt } : {}),
      ...(spec.endAt ? { endAt: spec.endAt } : {}),
      ...(spec.jitter !== undefined ? { jitter: spec.jitter } : {}),
    },
    action: { workflowType, taskQueue: action.taskQueue, ...Object.fromEntries(optional.map((k) => [k, action[k]])) },
    ...(policies ? { policies: policies as { overlap?: OverlapPolicy; catchupWindow?: Duration } } : {}),
    ...(state ? { state } : {}),
  };
}

/** The spec and policy fields Logbook has; the others are refused, not dropped, so a schedule never silently does less than asked. */
const SPEC_FIELDS: ReadonlySet<string> = new Set(['intervals', 'cronExpressions', 'calendars', 'timezone', 'startAt', 'endAt', 'jitter']);
const POLICY_FIELDS: ReadonlySet<string> = new Set(['overlap', 'catchupWindow']);

function refuseUnsupported(spec: ScheduleSpec, policies: SchedulePolicies | undefined): void {
  if (spec === null || typeof spec !== 'object') throw new TypeError("a schedule's spec must be an object ({ intervals, cronExpressions, calendars, … })");
  const specExtra = Object.keys(spec).filter((k) => !SPEC_FIELDS.has(k) && (spec as Record<string, unknown>)[k] !== undefined);
  if (specExtra.length > 0) throw new TypeError(`schedule spec ${specExtra.join(', ')}: not supported yet (a spec has ${[...SPEC_FIELDS].join(', ')})`);
  const policyExtra = Object.keys(policies ?? {}).filter((k) => !POLICY_FIELDS.has(k) && (policies as Record<string, unknown>)[k] !== undefined);
  if (policyExtra.length > 0) throw new TypeError(`schedule policies ${policyExtra.join(', ')}: not supported yet (policies are ${[...POLICY_FIELDS].join(', ')})`);
}

/** Logbook's description in Temporal's shape. */
function descriptionOf(raw: LogbookDescription): ScheduleDescription {
  const { spec, action, policies, state } = raw.schedule;
  const zone = spec.timeZone;
  const prefix = zone ? new RegExp(`^CRON_TZ=${zone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+`) : null;
  const started = (r: { workflowId: string; runId: string }) => ({ type: 'startWorkflow' as const, workflow: { workflowId: r.workflowId, firstExecutionRunId: r.runId } });
  return {
    scheduleId: raw.scheduleId,
    spec: {
      intervals: spec.intervals.map((i) => ({ every: i.everyMs, offset: i.offsetMs })),
      // The zone given as the spec's is stored on each expression: shown as given.
      cronExpressions: spec.cronExpressions.map((e) => (prefix ? e.replace(prefix, '') : e)),
      ...(zone ? { timezone: zone } : {}),
      ...(spec.startAtMs !== null ? { startAt: new Date(spec.startAtMs) } : {}),
      ...(spec.endAtMs !== null ? { endAt: new Date(spec.endAtMs) } : {}),
      jitter: spec.jitterMs,
    },
    action: {
      type: 'startWorkflow',
      workflowType: action.workflowType,
      taskQueue: action.taskQueue,
      workflowId: action.workflowId,
      args: action.args,
      ...(action.memo ? { memo: { ...action.memo } } : {}),
      ...(action.workflowExecutionTimeoutMs !== null ? { workflowExecutionTimeout: action.workflowExecutionTimeoutMs } : {}),
      ...(action.workflowRunTimeoutMs !== null ? { workflowRunTimeout: action.workflowRunTimeoutMs } : {}),
      ...(action.workflowTaskTimeoutMs !== null ? { workflowTaskTimeout: action.workflowTaskTimeoutMs } : {}),
    },
    policies: { overlap: policies.overlap, catchupWindow: policies.catchupWindowMs },
    state: { paused: state.paused, note: state.note, remainingActions: state.remainingActions ?? undefined },
    info: {
      recentActions: raw.info.recentActions.map((a) => ({ scheduledAt: new Date(a.scheduleTime), takenAt: new Date(a.actualTime), action: started(a) })),
      nextActionTimes: raw.info.nextActionTimes.map((t) => new Date(t)),
      numActionsTaken: raw.info.numActions,
      numActionsMissedCatchupWindow: raw.info.numActionsMissedCatchupWindow,
      numActionsSkippedOverlap: raw.info.numActionsSkippedOverlap,
      runningActions: raw.info.runningWorkflows.map(started),
      createdAt: new Date(raw.info.createdAt),
      lastUpdatedAt: raw.info.lastUpdatedAt ? new Date(raw.info.lastUpdatedAt) : undefined,
    },
    raw,
  };
}

/** The gateway's schedule errors as Temporal's. */
async function translated<T>(scheduleId: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof WorkflowClientError && error.code === 'ScheduleNotFound') throw new ScheduleNotFoundError(error.message, scheduleId);
    if (error instanceof WorkflowClientError && error.code === 'ScheduleAlreadyRunning') throw new ScheduleAlreadyRunning(error.message, scheduleId);
    throw error;
  }
}
