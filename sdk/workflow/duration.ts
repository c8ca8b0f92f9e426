/**
 * Durations as workflow authors write them: milliseconds or strings such as `'10s'`, `'2m'`,
 * `'48h'`, `'1.5 hours'`, `'500ms'`. Strings are read by the `ms` library, as Temporal's SDK reads
 * them, so a duration a Temporal workflow writes means the same here.
 * @module
 */
import ms from 'ms';

/** Milliseconds, or a number with a unit (`ms`, `s`, `m`, `h`, `d`, `w`, `y` and their long forms). */
export type Duration = number | string;

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
  let value: number | undefined;
  if (typeof duration === 'number') value = duration;
  else if (typeof duration === 'string' && duration.trim() !== '') value = ms(duration.trim() as ms.StringValue) as number | undefined;
  if (value === undefined || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `${what}: invalid duration ${JSON.stringify(duration)} (use milliseconds or a string such as '10s', '2m', '48h')`,
    );
  }
  return Math.ceil(value);
}

/** Like {@link durationToMs} but `undefined` stays `null` (an unset option). */
export function optionalDurationToMs(duration: Duration | undefined, what: string): number | null {
  return duration === undefined ? null : durationToMs(duration, what);
}
