/**
 * What a schedule is (Temporal's Schedules): a spec saying when to act, the action (start a
 * workflow), the policies (overlap, catch-up window) and the state (paused, note, remaining
 * actions). This module turns the JSON a client sends into a checked {@link ScheduleDefinition}
 * (errors name the field) and is shared by the gateway and the scheduler workflow, so it is pure:
 * no Node modules, no clock.
 * @module
 */
import { CronExpressionError, parseCronExpression } from '../../topics/cron/cron-expression.js';
import { identifierProblem, taskQueueProblem } from '../../topics/validation/name-rules.js';
import { durationProblem, MAX_DURATION_MS } from '../../topics/validation/value-rules.js';
import { durationToMs } from '../workflow/duration.js';

/** What to do with an action that comes due while a run the schedule started is still open. */
export type OverlapPolicy = 'SKIP' | 'BUFFER_ONE' | 'BUFFER_ALL' | 'CANCEL_OTHER' | 'TERMINATE_OTHER' | 'ALLOW_ALL';

/** The overlap policies, in Temporal's order. */
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['SKIP', 'BUFFER_ONE', 'BUFFER_ALL', 'CANCEL_OTHER', 'TERMINATE_OTHER', 'ALLOW_ALL'];

/** Every `everyMs`, at `offsetMs` past each multiple of it since the Unix epoch. */
export interface IntervalSpec {
  readonly everyMs: number;
  readonly offsetMs: number;
}

/** When a schedule acts: the union of its intervals and cron expressions, within start/end. */
export interface ScheduleSpec {
  readonly intervals: readonly IntervalSpec[];
  /**
   * Cron expressions, see `topics/cron/cron-expression.ts`: in UTC unless one has a `CRON_TZ=`
   * prefix. A spec given a `timeZone` stores it as that prefix on each expression without one.
   */
  readonly cronExpressions: readonly string[];
  /** The IANA time zone given for the cron expressions, if any (Temporal's `timezone`). */
  readonly timeZone?: string;
  readonly startAtMs: number | null;
  readonly endAtMs: number | null;
  /** Each action is delayed by a deterministic pseudo-random amount below this. */
  readonly jitterMs: number;
}

/** The workflow each action starts; its id is `<workflowId>-<scheduled time, RFC 3339>`. */
export interface ScheduleAction {
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly workflowId: string;
  readonly args: readonly unknown[];
  readonly workflowExecutionTimeoutMs: number | null;
  readonly workflowRunTimeoutMs: number | null;
  readonly workflowTaskTimeoutMs: number | null;
  readonly memo: Readonly<Record<string, unknown>> | null;
}

/** How actions are taken. */
export interface SchedulePolicies {
  readonly overlap: OverlapPolicy;
  /** An action found more than this late (the scheduler was down) is not taken. */
  readonly catchupWindowMs: number;
}

/** The schedule's mutable state. */
export interface ScheduleState {
  readonly paused: boolean;
  readonly note: string;
  /** Scheduled actions left (null: unlimited); triggers and backfills do not count. */
  readonly remainingActions: number | null;
}

/** A checked schedule. */
export interface ScheduleDefinition {
  readonly spec: ScheduleSpec;
  readonly action: ScheduleAction;
  readonly policies: SchedulePolicies;
  readonly state: ScheduleState;
}

/** A schedule definition that cannot be used; the message names the field. */
export class ScheduleDefinitionError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'ScheduleDefinitionError';
  }
}

/** Temporal's default catch-up window: one year. */
export const DEFAULT_CATCHUP_WINDOW_MS = 365 * 86_400_000;
/** Temporal's smallest catch-up window. */
export const MIN_CATCHUP_WINDOW_MS = 10_000;

/**
 * Checks and normalises a schedule as clients send it (JSON): durations as ms or `'10s'`, times
 * as epoch ms or RFC 3339.
 *
 * @throws ScheduleDefinitionError naming the field at fault
 * @example
 * scheduleDefinitionOf({
 *   spec: { intervals: [{ every: '1h' }], cronExpressions: ['0 9 * * MON-FRI'] },
 *   action: { workflowType: 'report', taskQueue: 'reports', workflowId: 'daily-report' },
 *   policies: { overlap: 'SKIP' },
 * })
 */
export function scheduleDefinitionOf(input: unknown, defaultWorkflowId?: string): ScheduleDefinition {
  const body = objectAt(input, 'schedule');
  return {
    spec: specOf(body.spec),
    action: actionOf(body.action, defaultWorkflowId),
    policies: policiesOf(body.policies),
    state: stateOf(body.state),
  };
}

/**
 * Whether `value` has the shape of a checked {@link ScheduleDefinition} (what the gateway sends the
 * scheduler), so a malformed signal sent around the API is ignored instead of failing the
 * scheduler's workflow tasks over and over.
 */
export function isScheduleDefinition(value: unknown): value is ScheduleDefinition {
  const v = value as ScheduleDefinition | null;
  if (v === null || typeof v !== 'object' || !v.spec || !v.action || !v.policies || !v.state) return false;
  const { spec, action, policies, state } = v;
  const optionalTime = (t: unknown) => t === null || Number.isSafeInteger(t);
  const cronOk = (e: unknown) => {
    try {
      parseCronExpression(e as string);
      return true;
    } catch {
      return false;
    }
  };
  return (
    Array.isArray(spec.intervals) &&
    spec.intervals.every((i) => Number.isSafeInteger(i?.everyMs) && i.everyMs >= 1000 && Number.isSafeInteger(i.offsetMs) && i.offsetMs >= 0) &&
    Array.isArray(spec.cronExpressions) &&
    spec.cronExpressions.every(cronOk) &&
    optionalTime(spec.startAtMs) &&
    optionalTime(spec.endAtMs) &&
    Number.isSafeInteger(spec.jitterMs) &&
    typeof action.workflowType === 'string' &&
    typeof action.taskQueue === 'string' &&
    typeof action.workflowId === 'string' &&
    Array.isArray(action.args) &&
    OVERLAP_POLICIES.includes(policies.overlap) &&
    Number.isSafeInteger(policies.catchupWindowMs) &&
    typeof state.paused === 'boolean' &&
    typeof state.note === 'string' &&
    (state.remainingActions === null || (Number.isSafeInteger(state.remainingActions) && state.remainingActions >= 0))
  );
}

/** A checked overlap policy (undefined: `fallback`). */
export function overlapPolicyOf(value: unknown, what: string, fallback: OverlapPolicy): OverlapPolicy {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !OVERLAP_POLICIES.includes(value as OverlapPolicy)) {
    throw new ScheduleDefinitionError(`'${what}' must be one of ${OVERLAP_POLICIES.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as OverlapPolicy;
}

/** An instant as epoch ms from epoch ms or an RFC 3339 string. */
export function instantOf(value: unknown, what: string): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isSafeInteger(ms)) throw new ScheduleDefinitionError(`'${what}' must be an RFC 3339 time or epoch milliseconds, got ${JSON.stringify(value)}`);
  return ms;
}

function specOf(input: unknown): ScheduleSpec {
  const spec = objectAt(input, 'spec');
  const intervals = arrayAt(spec.intervals, 'spec.intervals').map((item, i) => intervalOf(item, `spec.intervals[${i}]`));
  const zoneGiven = spec.timeZone ?? spec.timezone;
  if (zoneGiven !== undefined && (typeof zoneGiven !== 'string' || zoneGiven === '')) throw new ScheduleDefinitionError("'spec.timeZone' must be an IANA time zone name such as 'Europe/Paris'");
  const cronExpressions = arrayAt(spec.cronExpressions, 'spec.cronExpressions').map((item, i) => {
    const what = `spec.cronExpressions[${i}]`;
    if (typeof item !== 'string') throw new ScheduleDefinitionError(`'${what}' must be a string`);
    // @every counts from the Unix epoch: a time zone does not apply to it.
    const zoned = zoneGiven !== undefined && !/^\s*(CRON_TZ|TZ)=/i.test(item) && !/^\s*@every\b/i.test(item);
    const expression = zoned ? `CRON_TZ=${zoneGiven as string} ${item.trim()}` : item;
    try {
      parseCronExpression(expression);
    } catch (error) {
      if (error instanceof CronExpressionError) throw new ScheduleDefinitionError(`'${what}': ${error.message}`);
      throw error;
    }
    return expression;
  });
  if (intervals.length === 0 && cronExpressions.length === 0) {
    throw new ScheduleDefinitionError("'spec' needs at least one of 'intervals' or 'cronExpressions'");
  }
  const startAtMs = spec.startAt === undefined || spec.startAt === null ? null : instantOf(spec.startAt, 'spec.startAt');
  const endAtMs = spec.endAt === undefined || spec.endAt === null ? null : instantOf(spec.endAt, 'spec.endAt');
  if (startAtMs !== null && endAtMs !== null && endAtMs < startAtMs) throw new ScheduleDefinitionError("'spec.endAt' is before 'spec.startAt'");
  return { intervals, cronExpressions, startAtMs, endAtMs, jitterMs: durationAt(spec.jitter, 'spec.jitter', 0), ...(zoneGiven === undefined ? {} : { timeZone: zoneGiven as string }) };
}

function intervalOf(input: unknown, what: string): IntervalSpec {
  const interval = objectAt(input, what);
  const everyMs = durationAt(interval.every, `${what}.every`, null);
  if (everyMs < 1000) throw new ScheduleDefinitionError(`'${what}.every' must be at least 1s`);
  const offsetMs = durationAt(interval.offset, `${what}.offset`, 0);
  if (offsetMs >= everyMs) throw new ScheduleDefinitionError(`'${what}.offset' must be smaller than 'every'`);
  return { everyMs, offsetMs };
}

/** The longest suffix a scheduled run's id adds to the action's workflow id: `-` and the longest RFC 3339 time (of the last date JavaScript holds). */
const SCHEDULED_ID_SUFFIX = `-${new Date(8.64e15).toISOString()}`;

function actionOf(input: unknown, defaultWorkflowId: string | undefined): ScheduleAction {
  const action = objectAt(input, 'action');
  const workflowId = action.workflowId ?? defaultWorkflowId;
  const memo = action.memo === undefined || action.memo === null ? null : objectAt(action.memo, 'action.memo');
  const workflowType = stringAt(action.workflowType, 'action.workflowType');
  const taskQueue = stringAt(action.taskQueue, 'action.taskQueue');
  const id = stringAt(workflowId, 'action.workflowId');
  // Each action starts `<workflowId>-<time>`: that id, not only the base, must pass the rule.
  const invalid = identifierProblem(workflowType, 'action.workflowType') ?? taskQueueProblem(taskQueue, 'action.taskQueue') ?? identifierProblem(`${id}${SCHEDULED_ID_SUFFIX}`, 'action.workflowId (with the time each run adds)');
  if (invalid) throw new ScheduleDefinitionError(invalid);
  return {
    workflowType,
    taskQueue,
    workflowId: id,
    args: arrayAt(action.args, 'action.args'),
    workflowExecutionTimeoutMs: optionalDurationAt(action.workflowExecutionTimeout, 'action.workflowExecutionTimeout'),
    workflowRunTimeoutMs: optionalDurationAt(action.workflowRunTimeout, 'action.workflowRunTimeout'),
    workflowTaskTimeoutMs: optionalDurationAt(action.workflowTaskTimeout, 'action.workflowTaskTimeout'),
    memo,
  };
}

function policiesOf(input: unknown): SchedulePolicies {
  const policies = input === undefined || input === null ? {} : objectAt(input, 'policies');
  const catchupWindowMs = durationAt(policies.catchupWindow, 'policies.catchupWindow', DEFAULT_CATCHUP_WINDOW_MS);
  if (catchupWindowMs < MIN_CATCHUP_WINDOW_MS) throw new ScheduleDefinitionError("'policies.catchupWindow' must be at least 10s");
  return { overlap: overlapPolicyOf(policies.overlap, 'policies.overlap', 'SKIP'), catchupWindowMs };
}

function stateOf(input: unknown): ScheduleState {
  const state = input === undefined || input === null ? {} : objectAt(input, 'state');
  const remaining = state.remainingActions;
  if (remaining !== undefined && remaining !== null && (!Number.isSafeInteger(remaining) || (remaining as number) < 0)) {
    throw new ScheduleDefinitionError("'state.remainingActions' must be an integer ≥ 0");
  }
  if (state.paused !== undefined && typeof state.paused !== 'boolean') throw new ScheduleDefinitionError("'state.paused' must be a boolean");
  if (state.note !== undefined && typeof state.note !== 'string') throw new ScheduleDefinitionError("'state.note' must be a string");
  return { paused: state.paused === true, note: (state.note as string | undefined) ?? '', remainingActions: (remaining as number | undefined) ?? null };
}

function objectAt(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScheduleDefinitionError(`'${what}' must be an object`);
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ScheduleDefinitionError(`'${what}' must be an array`);
  return value;
}

function stringAt(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new ScheduleDefinitionError(`'${what}' must be a non-empty string`);
  return value;
}

function durationAt(value: unknown, what: string, fallback: number | null): number {
  if (value === undefined || value === null) {
    if (fallback === null) throw new ScheduleDefinitionError(`'${what}' is required`);
    return fallback;
  }
  let ms: number;
  try {
    ms = durationToMs(value as string | number, what);
  } catch (error) {
    throw new ScheduleDefinitionError((error as Error).message);
  }
  if (durationProblem(ms, what)) throw new ScheduleDefinitionError(`'${what}': ${JSON.stringify(value)} is ${ms} ms; a duration must be from 0 to 100 years (${MAX_DURATION_MS} ms)`);
  return ms;
}

function optionalDurationAt(value: unknown, what: string): number | null {
  return value === undefined || value === null ? null : durationAt(value, what, 0);
}
