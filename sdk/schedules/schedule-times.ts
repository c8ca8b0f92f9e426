/**
 * When a schedule acts: the next nominal action time of a spec, the times in a range (backfill)
 * and the jitter of an action. Pure functions of the spec and the instants given, so the scheduler
 * workflow computes the same times on replay.
 * @module
 */
import { nextCronTime, parseCronExpression, type CronSchedule } from '../../topics/cron/cron-expression.js';
import type { ScheduleSpec } from './schedule-definition.js';

const parsedCrons = new Map<string, CronSchedule>();

function cronOf(expression: string): CronSchedule {
  let parsed = parsedCrons.get(expression);
  if (!parsed) {
    parsed = parseCronExpression(expression);
    parsedCrons.set(expression, parsed);
  }
  return parsed;
}

/**
 * The first nominal action time strictly after `afterMs` (the earliest of the intervals and cron
 * expressions, not before `startAtMs`), or null when there is none before `endAtMs` (inclusive).
 */
export function nextActionTime(spec: ScheduleSpec, afterMs: number): number | null {
  const from = spec.startAtMs !== null ? Math.max(afterMs, spec.startAtMs - 1) : afterMs;
  let next = Number.POSITIVE_INFINITY;
  for (const { everyMs, offsetMs } of spec.intervals) {
    next = Math.min(next, offsetMs + (Math.floor((from - offsetMs) / everyMs) + 1) * everyMs);
  }
  for (const expression of spec.cronExpressions) next = Math.min(next, nextCronTime(cronOf(expression), from));
  if (!Number.isFinite(next) || (spec.endAtMs !== null && next > spec.endAtMs)) return null;
  return next;
}

/** The nominal action times in `(fromMs, toMs]`, at most `limit` of them, oldest first. */
export function actionTimesBetween(spec: ScheduleSpec, fromMs: number, toMs: number, limit: number): number[] {
  const times: number[] = [];
  for (let t = nextActionTime(spec, fromMs); t !== null && t <= toMs && times.length < limit; t = nextActionTime(spec, t)) times.push(t);
  return times;
}

/**
 * How long an action is delayed: below `jitterMs`, drawn from an FNV-1a hash of the schedule id
 * and the nominal time, so it is spread across schedules yet the same on every replay.
 */
export function jitterOf(scheduleId: string, nominalMs: number, jitterMs: number): number {
  if (jitterMs <= 0) return 0;
  let hash = 0x811c9dc5;
  for (const char of `${scheduleId}/${nominalMs}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % jitterMs;
}

/**
 * True when the spec's times depend on time-zone rules (a cron expression with a zone other than
 * UTC): those rules come with the runtime and change with it, so the scheduler records such
 * times instead of computing them again on replay.
 */
export function dependsOnTimeZoneRules(spec: ScheduleSpec): boolean {
  return spec.cronExpressions.some((e) => /^\s*(?:CRON_TZ|TZ)=/i.test(e) && !/^\s*(?:CRON_TZ|TZ)=(?:UTC|Etc\/UTC)\s/i.test(e));
}
