/**
 * Cron expressions as Temporal accepts them (robfig/cron's standard parser): five fields
 * `minute hour day-of-month month day-of-week`, an optional leading seconds field, ranges
 * (`1-5`), steps (`*\/15`, `10-40/10`, `5/20` = from 5 to the maximum), lists (`1,15`), names
 * (`JAN`–`DEC`, `SUN`–`SAT`, any case), `?` as `*`, the descriptors `@yearly`/`@annually`,
 * `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly` and `@every <duration>[/<offset>]`, and a
 * time zone prefix `CRON_TZ=<IANA zone>` (or `TZ=`); without one, times are UTC.
 *
 * Calendar expressions are evaluated by croner (a maintained, dependency-free cron library with
 * time zones and daylight-saving rules); this module translates robfig's dialect into croner's,
 * names the field at fault when an expression is refused, and keeps `@every`, which croner does
 * not have. Pure: no clock, no I/O — the caller passes the instant to search after, so the history
 * state machine and the scheduler workflow can both use it deterministically.
 * @module
 */
import { Cron } from 'croner';

/** A cron expression that cannot be parsed; the message names the field and the problem. */
export class CronExpressionError extends Error {
  /** The field at fault (`minute`, `day-of-week`, `@every`, `time zone`, `expression`, …). */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`invalid cron expression: ${field}: ${message}`);
    this.name = 'CronExpressionError';
    this.field = field;
  }
}

/** A parsed calendar expression, evaluated in its time zone. */
export interface CronCalendar {
  readonly kind: 'calendar';
  /** IANA time zone; `UTC` unless the expression names one. */
  readonly timeZone: string;
  /** The expression in croner's dialect (seconds first). */
  readonly pattern: string;
  readonly cron: Cron;
}

/** A parsed `@every <interval>[/<offset>]`: instants `offset + k × interval` since the Unix epoch. */
export interface CronEvery {
  readonly kind: 'every';
  readonly intervalMs: number;
  readonly offsetMs: number;
}

/** A parsed cron expression. */
export type CronSchedule = CronCalendar | CronEvery;

/** The fields, seconds first, with their ranges (for messages and for robfig's `N/step`). */
const FIELDS = [
  { name: 'second', croner: 'second', min: 0, max: 59 },
  { name: 'minute', croner: 'minute', min: 0, max: 59 },
  { name: 'hour', croner: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', croner: 'dayOfMonth', min: 1, max: 31 },
  { name: 'month', croner: 'month', min: 1, max: 12 },
  // 7 is Sunday too, as in Vixie cron and robfig.
  { name: 'day-of-week', croner: 'dayOfWeek', min: 0, max: 7 },
] as const;

/** A pattern that matches, field by field, to find which of a refused expression's fields croner refuses. */
const NEUTRAL = ['0', '0', '0', '1', '1', '*'];

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

/**
 * Parses a cron expression.
 *
 * @throws CronExpressionError naming the bad field, e.g. `invalid cron expression: hour: 24 is
 *   out of range 0-23`
 * @example
 * parseCronExpression('CRON_TZ=Europe/Paris *\/15 9-17 * * MON-FRI')
 */
export function parseCronExpression(expression: string): CronSchedule {
  if (typeof expression !== 'string') throw new CronExpressionError('expression', 'must be a string');
  let text = expression.trim();
  if (text === '') throw new CronExpressionError('expression', 'is empty');
  let timeZone = 'UTC';
  const zone = /^(?:CRON_TZ|TZ)=(\S*)\s*/i.exec(text);
  if (zone) {
    timeZone = checkedTimeZone(zone[1]!);
    text = text.slice(zone[0].length);
    if (text === '') throw new CronExpressionError('expression', 'has a time zone and nothing after it');
  }
  // @every counts from the Unix epoch: a time zone before it changes nothing (as in robfig/cron).
  if (text.startsWith('@every')) return parseEvery(text.slice('@every'.length));
  if (text.startsWith('@')) {
    const standard = DESCRIPTORS[text.toLowerCase()];
    if (standard === undefined) {
      throw new CronExpressionError('expression', `unknown descriptor ${JSON.stringify(text)} (use @yearly, @monthly, @weekly, @daily, @hourly or @every <duration>)`);
    }
    text = standard;
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new CronExpressionError('expression', `expected 5 fields (minute hour day-of-month month day-of-week) or 6 with leading seconds, got ${fields.length}`);
  }
  const withSeconds = fields.length === 6 ? fields : ['0', ...fields];
  const pattern = withSeconds.map((field, i) => toCronerField(field, FIELDS[i]!)).join(' ');
  const cron = newCron(pattern, timeZone, fields.length === 6 ? 0 : 1, fields);
  // Croner finds no time for a day that never occurs (30 February); refuse it here, so
  // nextCronTime always finds an instant.
  if (cron.nextRun(new Date(0)) === null) {
    throw new CronExpressionError('day-of-month', `never occurs in month ${withSeconds[4]}`);
  }
  return { kind: 'calendar', timeZone, pattern, cron };
}

/**
 * The first instant strictly after `afterEpochMs` that the expression matches, in epoch
 * milliseconds. Calendar expressions match whole seconds (whole minutes without a seconds field)
 * in their time zone, so the result is always a multiple of 1000.
 *
 * @param expression text (parsed on each call) or a {@link CronSchedule} from {@link parseCronExpression}
 * @throws CronExpressionError if the text is invalid
 * @example
 * nextCronTime('@hourly', Date.UTC(2026, 0, 1, 10, 30)) // Date.UTC(2026, 0, 1, 11, 0)
 */
export function nextCronTime(expression: string | CronSchedule, afterEpochMs: number): number {
  const schedule = typeof expression === 'string' ? parseCronExpression(expression) : expression;
  if (!Number.isFinite(afterEpochMs)) throw new RangeError(`nextCronTime: afterEpochMs must be finite, got ${afterEpochMs}`);
  if (schedule.kind === 'every') return nextEveryTime(schedule, afterEpochMs);
  // Croner counts from the whole second the instant is in; "strictly after" a whole second is the next one.
  const next = schedule.cron.nextRun(new Date(afterEpochMs));
  if (next === null) throw new CronExpressionError('expression', `matches no time after ${new Date(afterEpochMs).toISOString()}`);
  return earliestFromMonthStarts(schedule.cron, afterEpochMs, next.getTime());
}

/**
 * Croner 11 can skip the first days of a month: searching on from a day-of-month the month lacks
 * (from 26 February with `1,31`, it tries 31 February, lands on 3 March and misses 1 March). So
 * the search is made again from the start of each month (in the expression's time zone) before
 * croner's answer, and the earliest match wins.
 */
function earliestFromMonthStarts(cron: Cron, afterEpochMs: number, found: number): number {
  const zone = cron.options.timezone ?? 'UTC';
  let monthStarts = MONTH_STARTS.get(zone);
  if (!monthStarts) MONTH_STARTS.set(zone, (monthStarts = new Cron('0 0 0 1 * *', { timezone: zone })));
  let earliest = found;
  for (let start = monthStarts.nextRun(new Date(afterEpochMs)); start !== null && start.getTime() < earliest; start = monthStarts.nextRun(start)) {
    // From the last millisecond before the month: croner's next whole second is the month's first.
    const fromStart = cron.nextRun(new Date(start.getTime() - 1));
    if (fromStart !== null && fromStart.getTime() > afterEpochMs && fromStart.getTime() < earliest) earliest = fromStart.getTime();
  }
  return earliest;
}

/** A job matching the start of every month, per time zone. */
const MONTH_STARTS = new Map<string, Cron>();

/** The names a field takes (robfig's, any case), numbered from the field's first value. */
const NAMES: Readonly<Record<string, { readonly names: readonly string[]; readonly first: number }>> = {
  month: { names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'], first: 1 },
  'day-of-week': { names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'], first: 0 },
};

/**
 * A field of robfig's dialect in croner's. Only robfig's grammar passes (croner's extensions `L`,
 * `W`, `#` and `+` are refused); names become numbers; a field with `*`, `?` or `*\/1` among its
 * items is `*` (for the day fields this decides how day-of-month and day-of-week combine, as in
 * robfig); `N/step` runs from N to the maximum; a step wider than its range selects only its
 * first value (croner refuses such steps).
 */
function toCronerField(field: string, range: (typeof FIELDS)[number]): string {
  if (!/^[A-Za-z0-9*?,/-]+$/.test(field)) throw new CronExpressionError(range.name, `invalid value ${JSON.stringify(field)}`);
  const named = NAMES[range.name];
  const numeric = field.replace(/[A-Za-z]+/g, (word) => {
    const index = named ? named.names.indexOf(word.toUpperCase()) : -1;
    if (index < 0) throw new CronExpressionError(range.name, `invalid value ${JSON.stringify(word)}`);
    return String(index + named!.first);
  });
  const items = numeric.split(',');
  if (items.some((item) => item === '*' || item === '?' || item === '*/1')) return '*';
  const max = range.name === 'day-of-week' ? 6 : range.max;
  return items
    .map((item) => {
      const stepped = /^(\*|\d+)(?:-(\d+))?\/(\d+)$/.exec(item);
      if (!stepped) return item;
      const [, from, to, step] = stepped as unknown as [string, string, string | undefined, string];
      const low = from === '*' ? range.min : Number(from);
      const high = to === undefined ? max : Number(to);
      if (Number(step) > 0 && high >= low && Number(step) > high - low) return String(low);
      return `${low}-${high}/${step}`;
    })
    .join(',');
}

/** Croner's job for `pattern`, with its refusal turned into one naming the field. */
function newCron(pattern: string, timeZone: string, fieldShift: number, written: readonly string[]): Cron {
  try {
    return new Cron(pattern, { timezone: timeZone, domAndDow: false });
  } catch (error) {
    const parts = pattern.split(' ');
    // Find the field croner refuses by trying each one on its own in a pattern that matches.
    const at = parts.findIndex((part, i) => {
      try {
        new Cron(NEUTRAL.map((n, j) => (j === i ? part : n)).join(' '), { timezone: 'UTC' });
        return false;
      } catch {
        return true;
      }
    });
    if (at < fieldShift) throw new CronExpressionError('expression', cronerReason(error, undefined, ''));
    throw new CronExpressionError(FIELDS[at]!.name, cronerReason(error, FIELDS[at], written[at - fieldShift] ?? ''));
  }
}

/** Croner's message, in this module's words where it is about a value out of range or not a value at all. */
function cronerReason(error: unknown, field: (typeof FIELDS)[number] | undefined, text: string): string {
  const message = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
  if (field && /^Invalid value for /.test(message)) {
    // Croner counts days and months from 0 in its message: say it in the expression's terms.
    return /^\d+$/.test(text) ? `${text} is out of range ${field.min}-${field.max}` : `a value in ${JSON.stringify(text)} is out of range ${field.min}-${field.max}`;
  }
  const illegal = /\((.*)\) contains illegal characters/.exec(message);
  if (illegal) return `invalid value ${JSON.stringify(illegal[1])}`;
  return message;
}

/** An IANA time zone this runtime knows. @throws CronExpressionError naming it otherwise */
function checkedTimeZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new CronExpressionError('time zone', `unknown time zone ${JSON.stringify(zone)} (use an IANA name such as Europe/Paris)`);
  }
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

function nextEveryTime(every: CronEvery, afterEpochMs: number): number {
  const periods = Math.floor((afterEpochMs - every.offsetMs) / every.intervalMs) + 1;
  return every.offsetMs + periods * every.intervalMs;
}
