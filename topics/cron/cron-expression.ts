/**
 * Cron expressions as Temporal accepts them (robfig/cron's standard parser): five fields
 * `minute hour day-of-month month day-of-week`, an optional leading seconds field, ranges
 * (`1-5`), steps (`*\/15`, `10-40/10`, `5/20` = from 5 to the maximum), lists (`1,15`), names
 * (`JAN`–`DEC`, `SUN`–`SAT`, any case), `?` as `*`, and the descriptors `@yearly`/`@annually`,
 * `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly` and `@every <duration>[/<offset>]`.
 *
 * Times are UTC. Pure: no clock, no I/O — the caller passes the instant to search after, so the
 * history state machine and the scheduler workflow can both use it deterministically.
 * @module
 */

/** A cron expression that cannot be parsed; the message names the field and the problem. */
export class CronExpressionError extends Error {
  /** The field at fault (`minute`, `day-of-week`, `@every`, `expression`, …). */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`invalid cron expression: ${field}: ${message}`);
    this.name = 'CronExpressionError';
    this.field = field;
  }
}

/** A parsed calendar expression: the allowed values of each field, sorted ascending. */
export interface CronFields {
  readonly kind: 'fields';
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  /** 1 = January. */
  readonly months: readonly number[];
  /** 0 = Sunday (7 in the text is folded to 0). */
  readonly daysOfWeek: readonly number[];
  /**
   * Whether day-of-month and day-of-week were both restricted (neither `*` nor `?`): then a day
   * matches if EITHER matches, as in every cron since Vixie's; otherwise both must match.
   */
  readonly eitherDay: boolean;
}

/** A parsed `@every <interval>[/<offset>]`: instants `offset + k × interval` since the Unix epoch. */
export interface CronEvery {
  readonly kind: 'every';
  readonly intervalMs: number;
  readonly offsetMs: number;
}

/** A parsed cron expression. */
export type CronSchedule = CronFields | CronEvery;

interface FieldRange {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  /** Offset of `names[0]` (JAN = 1, SUN = 0). */
  readonly namesFrom?: number;
}

const SECOND: FieldRange = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldRange = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldRange = { name: 'hour', min: 0, max: 23 };
const DAY_OF_MONTH: FieldRange = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldRange = {
  name: 'month', min: 1, max: 12, namesFrom: 1,
  names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
};
// 7 is accepted as Sunday, as in Vixie cron and robfig; folded to 0 after parsing.
const DAY_OF_WEEK: FieldRange = {
  name: 'day-of-week', min: 0, max: 7, namesFrom: 0,
  names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'],
};

const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DURATION_UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000,
};

/** Days in each month of a leap year: the most a day-of-month can ever reach in that month. */
const MAX_DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Parses a cron expression.
 *
 * @throws CronExpressionError naming the bad field, e.g. `invalid cron expression: hour: 24 is
 *   out of range 0-23`
 * @example
 * parseCronExpression('*\/15 9-17 * * MON-FRI')
 */
export function parseCronExpression(expression: string): CronSchedule {
  if (typeof expression !== 'string') throw new CronExpressionError('expression', 'must be a string');
  const text = expression.trim();
  if (text === '') throw new CronExpressionError('expression', 'is empty');
  if (text.startsWith('@every')) return parseEvery(text.slice('@every'.length));
  if (text.startsWith('@')) {
    const standard = DESCRIPTORS[text.toLowerCase()];
    if (standard === undefined) {
      throw new CronExpressionError('expression', `unknown descriptor ${JSON.stringify(text)} (use @yearly, @monthly, @weekly, @daily, @hourly or @every <duration>)`);
    }
    return parseFields(standard.split(' '));
  }
  if (/^CRON_TZ=|^TZ=/i.test(text)) {
    throw new CronExpressionError('expression', 'time zones are not supported: cron expressions are evaluated in UTC');
  }
  const fields = text.split(/\s+/);
  if (fields.length === 5) return parseFields(fields);
  if (fields.length === 6) return parseFields(fields.slice(1), fields[0]);
  throw new CronExpressionError('expression', `expected 5 fields (minute hour day-of-month month day-of-week) or 6 with leading seconds, got ${fields.length}`);
}

/**
 * The first instant strictly after `afterEpochMs` that the expression matches, in epoch
 * milliseconds (UTC). Calendar expressions match whole seconds (whole minutes without a seconds
 * field), so the result is always a multiple of 1000.
 *
 * @param expression text (parsed on each call) or a {@link CronSchedule} from {@link parseCronExpression}
 * @throws CronExpressionError if the text is invalid
 * @example
 * nextCronTime('@hourly', Date.UTC(2026, 0, 1, 10, 30)) // Date.UTC(2026, 0, 1, 11, 0)
 */
export function nextCronTime(expression: string | CronSchedule, afterEpochMs: number): number {
  const schedule = typeof expression === 'string' ? parseCronExpression(expression) : expression;
  if (!Number.isFinite(afterEpochMs)) throw new RangeError(`nextCronTime: afterEpochMs must be finite, got ${afterEpochMs}`);
  return schedule.kind === 'every' ? nextEveryTime(schedule, afterEpochMs) : nextFieldsTime(schedule, afterEpochMs);
}

function parseEvery(rest: string): CronEvery {
  const spec = rest.trim();
  if (spec === '' || rest === spec) {
    throw new CronExpressionError('@every', 'expected "@every <duration>[/<offset>]", e.g. "@every 1h30m"');
  }
  const [interval, offset, extra] = spec.split('/');
  if (extra !== undefined) throw new CronExpressionError('@every', `too many "/" in ${JSON.stringify(spec)}`);
  const intervalMs = parseGoDuration(interval!, '@every');
  if (intervalMs <= 0) throw new CronExpressionError('@every', 'the interval must be positive');
  const offsetMs = offset === undefined ? 0 : parseGoDuration(offset, '@every offset');
  if (offsetMs >= intervalMs) throw new CronExpressionError('@every offset', 'must be smaller than the interval');
  return { kind: 'every', intervalMs, offsetMs };
}

/** A Go-style duration (`90s`, `1h30m`, `1.5h`, `500ms`, and `d` for days) in milliseconds. */
function parseGoDuration(text: string, field: string): number {
  const trimmed = text.trim();
  const part = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)/gy;
  let total = 0;
  let end = 0;
  for (let match = part.exec(trimmed); match !== null; match = part.exec(trimmed)) {
    total += Number(match[1]) * DURATION_UNIT_MS[match[2]!]!;
    end = part.lastIndex;
  }
  if (trimmed === '' || end !== trimmed.length) {
    throw new CronExpressionError(field, `invalid duration ${JSON.stringify(text)} (use e.g. "30s", "15m", "1h30m", "2d")`);
  }
  return Math.round(total);
}

function parseFields(fields: readonly string[], secondsText?: string): CronFields {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  const daysOfMonth = parseField(dayOfMonth, DAY_OF_MONTH);
  const months = parseField(month, MONTH);
  const daysOfWeek = parseField(dayOfWeek, DAY_OF_WEEK);
  const parsed: CronFields = {
    kind: 'fields',
    seconds: secondsText === undefined ? [0] : parseField(secondsText, SECOND).values,
    minutes: parseField(minute, MINUTE).values,
    hours: parseField(hour, HOUR).values,
    daysOfMonth: daysOfMonth.values,
    months: months.values,
    daysOfWeek: [...new Set(daysOfWeek.values.map((day) => day % 7))].sort((a, b) => a - b),
    eitherDay: daysOfMonth.restricted && daysOfWeek.restricted,
  };
  // Without the either-day rule a day must match day-of-month; refuse combinations such as
  // "30 2" (30 February) that never occur, so nextCronTime always finds an instant.
  if (!parsed.eitherDay) {
    const possible = parsed.months.some((m) => parsed.daysOfMonth.some((d) => d <= MAX_DAYS_IN_MONTH[m - 1]!));
    if (!possible) throw new CronExpressionError('day-of-month', `${dayOfMonth} never occurs in month ${month}`);
  }
  return parsed;
}

/** The values a field allows, and whether it restricts at all (`*` and `?` without a step do not). */
function parseField(text: string, range: FieldRange): { values: number[]; restricted: boolean } {
  const values = new Set<number>();
  let restricted = false;
  for (const item of text.split(',')) {
    if (item === '') throw new CronExpressionError(range.name, `empty list item in ${JSON.stringify(text)}`);
    const [span, stepText, extra] = item.split('/');
    if (extra !== undefined) throw new CronExpressionError(range.name, `too many "/" in ${JSON.stringify(item)}`);
    const step = stepText === undefined ? 1 : parseNumber(stepText, range, 'step');
    if (step < 1) throw new CronExpressionError(range.name, `step must be at least 1 in ${JSON.stringify(item)}`);
    let low: number;
    let high: number;
    if (span === '*' || span === '?') {
      low = range.min;
      high = range.max;
      if (step > 1) restricted = true;
    } else {
      restricted = true;
      const [lowText, highText, tooMany] = span!.split('-');
      if (tooMany !== undefined) throw new CronExpressionError(range.name, `invalid range ${JSON.stringify(span)}`);
      low = parseValue(lowText!, range);
      // "N/step" means from N to the maximum, as in robfig/cron.
      high = highText !== undefined ? parseValue(highText, range) : stepText !== undefined ? range.max : low;
      if (low > high) throw new CronExpressionError(range.name, `range ${JSON.stringify(span)} runs backwards`);
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return { values: [...values].sort((a, b) => a - b), restricted };
}

function parseValue(text: string, range: FieldRange): number {
  const nameIndex = range.names?.indexOf(text.toUpperCase()) ?? -1;
  if (nameIndex >= 0) return nameIndex + range.namesFrom!;
  const value = parseNumber(text, range, 'value');
  if (value < range.min || value > range.max) {
    throw new CronExpressionError(range.name, `${value} is out of range ${range.min}-${range.max}`);
  }
  return value;
}

function parseNumber(text: string, range: FieldRange, what: string): number {
  if (!/^\d+$/.test(text)) {
    const hint = range.names ? ` (a number or a name such as ${range.names[1]})` : '';
    throw new CronExpressionError(range.name, `invalid ${what} ${JSON.stringify(text)}${hint}`);
  }
  return Number(text);
}

function nextEveryTime(every: CronEvery, afterEpochMs: number): number {
  const periods = Math.floor((afterEpochMs - every.offsetMs) / every.intervalMs) + 1;
  return every.offsetMs + periods * every.intervalMs;
}

/** The smallest allowed value ≥ `from`, or undefined. */
function firstAtLeast(values: readonly number[], from: number): number | undefined {
  return values.find((value) => value >= from);
}

function dayMatches(fields: CronFields, date: Date): boolean {
  const byMonthDay = fields.daysOfMonth.includes(date.getUTCDate());
  const byWeekDay = fields.daysOfWeek.includes(date.getUTCDay());
  return fields.eitherDay ? byMonthDay || byWeekDay : byMonthDay && byWeekDay;
}

// Parsing guarantees a match within 8 years (29 February with a weekday restriction can skip one
// leap year); the bound only turns an impossible case into an error instead of a hang.
const SEARCH_YEARS = 10;

/**
 * Field-by-field search, coarsest first: when a field does not match, advance it to its next
 * allowed value and reset every finer field to its minimum (robfig/cron's algorithm, in UTC).
 */
function nextFieldsTime(fields: CronFields, afterEpochMs: number): number {
  const date = new Date(Math.floor(afterEpochMs / 1000) * 1000 + 1000);
  const lastYear = date.getUTCFullYear() + SEARCH_YEARS;
  for (;;) {
    if (date.getUTCFullYear() > lastYear) {
      throw new CronExpressionError('expression', `matches no time within ${SEARCH_YEARS} years`);
    }
    const month = firstAtLeast(fields.months, date.getUTCMonth() + 1);
    if (month !== date.getUTCMonth() + 1) {
      if (month === undefined) date.setUTCFullYear(date.getUTCFullYear() + 1, fields.months[0]! - 1, 1);
      else date.setUTCMonth(month - 1, 1);
      date.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(fields, date)) {
      date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(0, 0, 0, 0);
      continue;
    }
    const hour = firstAtLeast(fields.hours, date.getUTCHours());
    if (hour !== date.getUTCHours()) {
      if (hour === undefined) date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(hour ?? 0, 0, 0, 0);
      continue;
    }
    const minute = firstAtLeast(fields.minutes, date.getUTCMinutes());
    if (minute !== date.getUTCMinutes()) {
      if (minute === undefined) date.setUTCHours(date.getUTCHours() + 1, 0, 0, 0);
      else date.setUTCMinutes(minute, 0, 0);
      continue;
    }
    const second = firstAtLeast(fields.seconds, date.getUTCSeconds());
    if (second !== date.getUTCSeconds()) {
      if (second === undefined) date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
      else date.setUTCSeconds(second, 0);
      continue;
    }
    return date.getTime();
  }
}
