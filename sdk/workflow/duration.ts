/**
 * Durations as workflow authors write them: milliseconds or strings such as `'10s'`, `'2m'`,
 * `'48h'`, `'1.5 hours'`, `'500ms'`.
 * @module
 */

/** Milliseconds, or a number with a unit (`ms`, `s`, `m`, `h`, `d`, `w` and their long forms). */
export type Duration = number | string;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1, msec: 1, msecs: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hrs: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};

const DURATION_TEXT = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i;

/**
 * Converts a {@link Duration} to whole milliseconds (fractions round up, so a timer never fires
 * early).
 *
 * @param what names the option in the error message, e.g. `startToCloseTimeout`
 * @throws TypeError for a negative, non-finite or unparseable duration
 * @example
 * durationToMs('2m', 'sleep') // 120000
 */
export function durationToMs(duration: Duration, what: string): number {
  let ms: number | undefined;
  if (typeof duration === 'number') ms = duration;
  else if (typeof duration === 'string') {
    const match = DURATION_TEXT.exec(duration);
    const unit = UNIT_MS[(match?.[2] ?? '').toLowerCase() || 'ms'];
    if (match && unit !== undefined) ms = Number(match[1]) * unit;
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
    throw new TypeError(
      `${what}: invalid duration ${JSON.stringify(duration)} (use milliseconds or a string such as '10s', '2m', '48h')`,
    );
  }
  return Math.ceil(ms);
}

/** Like {@link durationToMs} but `undefined` stays `null` (an unset option). */
export function optionalDurationToMs(duration: Duration | undefined, what: string): number | null {
  return duration === undefined ? null : durationToMs(duration, what);
}
