/**
 * Temporal's calendar specs (`spec.calendars`) as the cron expressions Logbook's schedules run:
 * each field's values and ranges become the matching cron field, with seconds first. What cron
 * cannot say the same way is refused with the reason, never dropped.
 * @module
 */

/** A value, or a range of values with a step (Temporal's `Range`). */
export type CalendarRange<T> = T | { readonly start: T; readonly end?: T; readonly step?: number };
/** One field of a calendar spec: `'*'`, a value or range, or a list of them (Temporal's `LooseRange`). */
export type CalendarField<T> = '*' | CalendarRange<T> | ReadonlyArray<CalendarRange<T>>;

/** Temporal's month names. */
export type Month = 'JANUARY' | 'FEBRUARY' | 'MARCH' | 'APRIL' | 'MAY' | 'JUNE' | 'JULY' | 'AUGUST' | 'SEPTEMBER' | 'OCTOBER' | 'NOVEMBER' | 'DECEMBER';
/** Temporal's day names. */
export type DayOfWeek = 'SUNDAY' | 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY';

/** A calendar spec (Temporal's `CalendarSpec`): second, minute and hour default to 0, the rest to every value. */
export interface CalendarSpec {
  readonly second?: CalendarField<number>;
  readonly minute?: CalendarField<number>;
  readonly hour?: CalendarField<number>;
  readonly dayOfMonth?: CalendarField<number>;
  readonly month?: CalendarField<Month | number>;
  readonly year?: CalendarField<number>;
  readonly dayOfWeek?: CalendarField<DayOfWeek | number>;
  readonly comment?: string;
}

const MONTHS: readonly string[] = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];
const DAYS: readonly string[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/** Each field's bounds, default, and names (their index plus `base` is the value). */
const FIELDS = {
  second: { min: 0, max: 59, fallback: '0' },
  minute: { min: 0, max: 59, fallback: '0' },
  hour: { min: 0, max: 23, fallback: '0' },
  dayOfMonth: { min: 1, max: 31, fallback: '*' },
  month: { min: 1, max: 12, fallback: '*', names: MONTHS, base: 1 },
  dayOfWeek: { min: 0, max: 6, fallback: '*', names: DAYS, base: 0 },
} as const;
type FieldName = keyof typeof FIELDS;
const KNOWN_KEYS: ReadonlySet<string> = new Set([...Object.keys(FIELDS), 'year', 'comment']);

/**
 * The cron expression (seconds first) that fires when the calendar matches.
 * @throws TypeError naming the field: a value out of range or of the wrong kind, a year (not yet
 *   supported), or both a day of month and a day of week (cron would match either; Temporal both)
 */
export function cronOfCalendar(calendar: CalendarSpec, at = 'calendars[0]'): string {
  if (calendar === null || typeof calendar !== 'object') throw new TypeError(`${at} must be a calendar spec object`);
  const unknown = Object.keys(calendar).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) throw new TypeError(`${at} has ${unknown.join(', ')}; a calendar has ${[...KNOWN_KEYS].join(', ')}`);
  if (calendar.year !== undefined && calendar.year !== '*') throw new TypeError(`${at}.year: calendars limited to some years are not supported yet; use startAt and endAt`);
  const field = (name: FieldName) => cronField(calendar[name] as CalendarField<number | string> | undefined, name, `${at}.${name}`);
  const fields = { second: field('second'), minute: field('minute'), hour: field('hour'), dayOfMonth: field('dayOfMonth'), month: field('month'), dayOfWeek: field('dayOfWeek') };
  if (fields.dayOfMonth !== '*' && fields.dayOfWeek !== '*') {
    throw new TypeError(`${at}: a calendar with both dayOfMonth and dayOfWeek is not supported yet (Temporal matches days that are both; a cron expression matches either)`);
  }
  return [fields.second, fields.minute, fields.hour, fields.dayOfMonth, fields.month, fields.dayOfWeek].join(' ');
}

function cronField(value: CalendarField<number | string> | undefined, name: FieldName, at: string): string {
  if (value === undefined) return FIELDS[name].fallback;
  if (value === '*') return '*';
  const ranges = Array.isArray(value) ? value : [value];
  if (ranges.length === 0) throw new TypeError(`${at} is an empty list; leave it out, or give '*'`);
  return ranges.map((range, i) => cronRange(range as CalendarRange<number | string>, name, Array.isArray(value) ? `${at}[${i}]` : at)).join(',');
}

function cronRange(range: CalendarRange<number | string>, name: FieldName, at: string): string {
  if (range === null || typeof range !== 'object') return String(valueOf(range, name, at));
  const start = valueOf(range.start, name, `${at}.start`);
  const end = range.end === undefined ? start : valueOf(range.end, name, `${at}.end`);
  if (end < start) throw new TypeError(`${at}: end ${end} is before start ${start}`);
  const step = range.step ?? 1;
  if (!Number.isSafeInteger(step) || step < 1) throw new TypeError(`${at}.step must be a whole number ≥ 1, got ${String(range.step)}`);
  // As in Temporal, `end` defaults to `start`: a single value, whatever the step (cron would read `5/10` as 5 to the top).
  if (end === start) return String(start);
  return step === 1 ? `${start}-${end}` : `${start}-${end}/${step}`;
}

function valueOf(value: unknown, name: FieldName, at: string): number {
  const spec = FIELDS[name];
  if (typeof value === 'string' && 'names' in spec) {
    const index = spec.names.indexOf(value.toUpperCase());
    if (index < 0) throw new TypeError(`${at}: ${JSON.stringify(value)} is not one of ${spec.names.join(', ')}`);
    return index + spec.base;
  }
  if (!Number.isSafeInteger(value) || (value as number) < spec.min || (value as number) > spec.max) {
    throw new TypeError(`${at} must be a whole number from ${spec.min} to ${spec.max}${'names' in spec ? ' or a name' : ''}, got ${JSON.stringify(value)}`);
  }
  return value as number;
}
