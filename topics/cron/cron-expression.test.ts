import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CronExpressionError, nextCronTime, parseCronExpression } from './cron-expression.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);
const iso = (ms: number) => new Date(ms).toISOString();

/** The next `count` instants after `from`, as ISO strings (easier to read in a failed assertion). */
function upcoming(expression: string, from: number, count: number): string[] {
  const times: string[] = [];
  let after = from;
  for (let i = 0; i < count; i++) {
    after = nextCronTime(expression, after);
    times.push(iso(after));
  }
  return times;
}

describe('cron expressions: next time', () => {
  it('every minute fires at the next whole minute, strictly after the given instant', () => {
    assert.equal(iso(nextCronTime('* * * * *', utc(2026, 3, 1, 10, 0, 0))), '2026-03-01T10:01:00.000Z');
    assert.equal(iso(nextCronTime('* * * * *', utc(2026, 3, 1, 10, 0, 0) + 1)), '2026-03-01T10:01:00.000Z');
    assert.equal(iso(nextCronTime('* * * * *', utc(2026, 3, 1, 10, 0, 59) + 999)), '2026-03-01T10:01:00.000Z');
  });

  it('steps, ranges and lists select the documented minutes and hours', () => {
    assert.deepEqual(upcoming('*/20 9-10 * * *', utc(2026, 3, 1, 8, 59), 7), [
      '2026-03-01T09:00:00.000Z', '2026-03-01T09:20:00.000Z', '2026-03-01T09:40:00.000Z',
      '2026-03-01T10:00:00.000Z', '2026-03-01T10:20:00.000Z', '2026-03-01T10:40:00.000Z',
      '2026-03-02T09:00:00.000Z',
    ]);
    assert.deepEqual(upcoming('5,35 1 * * *', utc(2026, 3, 1), 3), [
      '2026-03-01T01:05:00.000Z', '2026-03-01T01:35:00.000Z', '2026-03-02T01:05:00.000Z',
    ]);
    assert.deepEqual(upcoming('10-40/15 0 * * *', utc(2026, 3, 1), 3), [
      '2026-03-01T00:10:00.000Z', '2026-03-01T00:25:00.000Z', '2026-03-01T00:40:00.000Z',
    ]);
  });

  it('"N/step" runs from N to the field maximum', () => {
    assert.deepEqual(upcoming('50/5 0 * * *', utc(2026, 3, 1), 3), [
      '2026-03-01T00:50:00.000Z', '2026-03-01T00:55:00.000Z', '2026-03-02T00:50:00.000Z',
    ]);
  });

  it('weekday names, ranges and 7 for Sunday select weekdays', () => {
    // 2026-03-06 is a Friday.
    assert.deepEqual(upcoming('0 9 * * MON-FRI', utc(2026, 3, 6, 10), 2), ['2026-03-09T09:00:00.000Z', '2026-03-10T09:00:00.000Z']);
    assert.equal(iso(nextCronTime('0 0 * * 7', utc(2026, 3, 6))), '2026-03-08T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 * * sun', utc(2026, 3, 6))), '2026-03-08T00:00:00.000Z');
  });

  it('month names and month ends roll over into the next year', () => {
    assert.equal(iso(nextCronTime('0 0 1 JAN,jul *', utc(2026, 7, 1, 0, 0, 1))), '2027-01-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 31 * *', utc(2026, 4, 1))), '2026-05-31T00:00:00.000Z');
    assert.equal(iso(nextCronTime('59 23 31 12 *', utc(2026, 12, 31, 23, 59))), '2027-12-31T23:59:00.000Z');
  });

  it('29 February waits for the next leap year', () => {
    assert.equal(iso(nextCronTime('0 0 29 2 *', utc(2026, 1, 1))), '2028-02-29T00:00:00.000Z');
  });

  it('days the month before lacks do not skip the first days of the next month (1,31 from 26 February is 1 March)', () => {
    const after = Date.parse('2030-02-26T00:00:58Z');
    assert.equal(iso(nextCronTime('0 0 0 1,6,11,16,21,26,31 * *', after)), '2030-03-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('*/2 0 0-0/1 */5 * */6', after)), '2030-03-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('CRON_TZ=America/New_York 0 0 1,31 * *', after)), '2030-03-01T05:00:00.000Z');
  });

  it('day-of-month and day-of-week both restricted match either, as in Vixie cron', () => {
    // 2026-03-02 is a Monday; the 15th is a Sunday.
    assert.deepEqual(upcoming('0 0 15 * MON', utc(2026, 3, 2, 1), 3), [
      '2026-03-09T00:00:00.000Z', '2026-03-15T00:00:00.000Z', '2026-03-16T00:00:00.000Z',
    ]);
    // With one of them "*" both must match: the 13th that is a Friday.
    assert.equal(iso(nextCronTime('0 0 13 * FRI', utc(2026, 1, 1))), '2026-01-02T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 13 ? FRI', utc(2026, 1, 1))), '2026-01-02T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 * * FRI', utc(2026, 1, 1))), '2026-01-02T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 13 * *', utc(2026, 1, 1))), '2026-01-13T00:00:00.000Z');
  });

  it('an optional leading seconds field fires on those seconds', () => {
    assert.deepEqual(upcoming('*/20 * * * * *', utc(2026, 3, 1, 10, 0, 5), 4), [
      '2026-03-01T10:00:20.000Z', '2026-03-01T10:00:40.000Z', '2026-03-01T10:01:00.000Z', '2026-03-01T10:01:20.000Z',
    ]);
  });

  it('descriptors map to their standard expressions', () => {
    const from = utc(2026, 3, 4, 10, 30); // a Wednesday
    assert.equal(iso(nextCronTime('@hourly', from)), '2026-03-04T11:00:00.000Z');
    assert.equal(iso(nextCronTime('@daily', from)), '2026-03-05T00:00:00.000Z');
    assert.equal(iso(nextCronTime('@midnight', from)), '2026-03-05T00:00:00.000Z');
    assert.equal(iso(nextCronTime('@weekly', from)), '2026-03-08T00:00:00.000Z');
    assert.equal(iso(nextCronTime('@monthly', from)), '2026-04-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('@yearly', from)), '2027-01-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('@annually', from)), '2027-01-01T00:00:00.000Z');
  });

  it('@every is aligned to the Unix epoch, with an optional offset', () => {
    assert.equal(iso(nextCronTime('@every 15m', utc(2026, 3, 1, 10, 7))), '2026-03-01T10:15:00.000Z');
    assert.equal(iso(nextCronTime('@every 15m', utc(2026, 3, 1, 10, 15))), '2026-03-01T10:30:00.000Z');
    assert.equal(iso(nextCronTime('@every 1h30m', utc(2026, 3, 1, 0, 0))), '2026-03-01T01:30:00.000Z');
    assert.equal(iso(nextCronTime('@every 1h/5m', utc(2026, 3, 1, 10, 7))), '2026-03-01T11:05:00.000Z');
    assert.equal(nextCronTime('@every 500ms', 1250), 1500);
    assert.equal(nextCronTime('@every 1.5s', 0), 1500);
  });

  it('a CRON_TZ= (or TZ=) prefix evaluates the fields in that time zone, daylight saving included', () => {
    // 09:00 in New York is 13:00 UTC in summer (EDT) and 14:00 UTC in winter (EST).
    assert.equal(iso(nextCronTime('CRON_TZ=America/New_York 0 9 * * *', utc(2026, 7, 1))), '2026-07-01T13:00:00.000Z');
    assert.equal(iso(nextCronTime('TZ=America/New_York 0 9 * * *', utc(2026, 1, 15))), '2026-01-15T14:00:00.000Z');
    // Midnight on the 1st in Tokyo is 15:00 UTC the day before.
    assert.equal(iso(nextCronTime('CRON_TZ=Asia/Tokyo 0 0 1 * *', utc(2026, 3, 5))), '2026-03-31T15:00:00.000Z');
    // @every counts from the epoch whatever the zone.
    assert.equal(nextCronTime('CRON_TZ=Europe/Paris @every 1h', utc(2026, 3, 1, 10, 30)), utc(2026, 3, 1, 11));
    const parsed = parseCronExpression('cron_tz=Europe/Paris 30 8 * * MON-FRI');
    assert.ok(parsed.kind === 'calendar');
    assert.equal(parsed.timeZone, 'Europe/Paris');
  });

  it("robfig's dialect at the edges: '*/1' in a list is a star, wide steps on named ranges select their first value", () => {
    // Day-of-week "*/1,5" is a star, so day-of-month decides alone: the 13th, not the first Friday.
    assert.equal(iso(nextCronTime('0 0 13 * */1,5', utc(2026, 1, 1))), '2026-01-13T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 1 JAN-MAR/13 *', utc(2026, 1, 2))), '2027-01-01T00:00:00.000Z');
    assert.equal(iso(nextCronTime('0 0 * * MON-FRI/8', utc(2026, 1, 1))), '2026-01-05T00:00:00.000Z');
  });

  it('accepts a parsed expression as well as its text', () => {
    const parsed = parseCronExpression('0 12 * * *');
    assert.equal(nextCronTime(parsed, utc(2026, 3, 1)), nextCronTime('0 12 * * *', utc(2026, 3, 1)));
  });
});

describe('cron expressions: errors name the bad field', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['60 * * * *', 'minute', /60 is out of range 0-59/],
    ['* 24 * * *', 'hour', /24 is out of range 0-23/],
    ['* * 0 * *', 'day-of-month', /0 is out of range 1-31/],
    ['* * * 13 *', 'month', /13 is out of range 1-12/],
    ['* * * FOO *', 'month', /invalid value "FOO"/],
    ['* * * * 8', 'day-of-week', /8 is out of range 0-7/],
    ['* * * * MON-', 'day-of-week', /illegal upper range/],
    ['*/0 * * * *', 'minute', /illegal stepping: 0/],
    ['5-1 * * * *', 'minute', /From value is larger than to value/],
    ['1,,2 * * * *', 'minute', /is empty/],
    ['1,99 * * * *', 'minute', /a value in "1,99" is out of range 0-59/],
    // Croner's extensions are not robfig's: refused.
    ['0 0 L * *', 'day-of-month', /invalid value "L"/],
    ['0 0 15W * *', 'day-of-month', /invalid value "W"/],
    ['0 0 * * 5#2', 'day-of-week', /invalid value "5#2"/],
    ['0 0 * * +FRI', 'day-of-week', /invalid value "\+FRI"/],
    ['0 0 * * MON-SUN', 'day-of-week', /From value is larger than to value/],
    ['61 * * * * *', 'second', /61 is out of range 0-59/],
    ['* * *', 'expression', /expected 5 fields/],
    ['', 'expression', /is empty/],
    ['@fortnightly', 'expression', /unknown descriptor/],
    ['@every', '@every', /expected "@every <duration>/],
    ['@every 5x', '@every', /invalid duration "5x"/],
    ['@every 0s', '@every', /must be positive/],
    ['@every 1h/2h', '@every offset', /smaller than the interval/],
    ['0 0 30 2 *', 'day-of-month', /never occurs in month 2/],
    ['CRON_TZ=Mars/Olympus 0 0 * * *', 'time zone', /unknown time zone "Mars\/Olympus"/],
    ['TZ=UTC', 'expression', /nothing after it/],
  ];
  for (const [expression, field, message] of cases) {
    it(`${JSON.stringify(expression)} is refused naming ${field}`, () => {
      assert.throws(() => parseCronExpression(expression), (error: unknown) => {
        assert.ok(error instanceof CronExpressionError);
        assert.equal(error.field, field);
        assert.match(error.message, new RegExp(`^invalid cron expression: ${field.replace(/[@]/g, '\\$&')}: `));
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it('nextCronTime refuses invalid text and a non-finite start', () => {
    assert.throws(() => nextCronTime('* * * * * * *', 0), CronExpressionError);
    assert.throws(() => nextCronTime('* * * * *', Number.NaN), RangeError);
  });
});

/** A generated field: the text and the values it allows, worked out independently of the parser. */
interface GeneratedField {
  text: string;
  values: Set<number>;
  star: boolean;
}

function field(min: number, max: number): fc.Arbitrary<GeneratedField> {
  const all = (step: number, from = min, to = max) => {
    const values = new Set<number>();
    for (let v = from; v <= to; v += step) values.add(v);
    return values;
  };
  return fc.oneof(
    fc.constant({ text: '*', values: all(1), star: true }),
    fc.integer({ min: 2, max: 9 }).map((step) => ({ text: `*/${step}`, values: all(step), star: false })),
    fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 4 }).map((list) => ({
      text: list.join(','), values: new Set(list), star: false,
    })),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min: 1, max: 4 })).map(([a, b, step]) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      return { text: `${low}-${high}/${step}`, values: all(step, low, high), star: false };
    }),
  );
}

/** The reference: scans day by day, then the day's instants in order, using the fields' value sets. */
function referenceNext(fields: GeneratedField[], after: number): number | null {
  const [second, minute, hour, dom, month, dow] = fields as [GeneratedField, GeneratedField, GeneratedField, GeneratedField, GeneratedField, GeneratedField];
  const weekdays = new Set([...dow.values].map((d) => d % 7));
  const firstDay = Math.floor(after / 86_400_000);
  for (let day = firstDay; day < firstDay + 366 * 9; day++) {
    const date = new Date(day * 86_400_000);
    if (!month.values.has(date.getUTCMonth() + 1)) continue;
    const byDom = dom.values.has(date.getUTCDate());
    const byDow = weekdays.has(date.getUTCDay());
    if (!(!dom.star && !dow.star ? byDom || byDow : byDom && byDow)) continue;
    for (let h = 0; h < 24; h++) {
      if (!hour.values.has(h)) continue;
      for (let m = 0; m < 60; m++) {
        if (!minute.values.has(m)) continue;
        for (let s = 0; s < 60; s++) {
          const at = day * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000;
          if (second.values.has(s) && at > after) return at;
        }
      }
    }
  }
  return null;
}

describe('cron expressions (property)', () => {
  it('the next time equals a day-by-day scan of the allowed values', () => {
    const expression = fc.tuple(field(0, 59), field(0, 59), field(0, 23), field(1, 31), field(1, 12), field(0, 7));
    const start = fc.integer({ min: utc(2020, 1, 1), max: utc(2035, 1, 1) });
    fc.assert(
      fc.property(expression, start, (fields, after) => {
        const text = fields.map((f) => f.text).join(' ');
        let actual: number;
        try {
          actual = nextCronTime(text, after);
        } catch (error) {
          // Only an impossible day (such as 30 February) may be refused; the scan must agree.
          assert.ok(error instanceof CronExpressionError, String(error));
          assert.equal(error.field, 'day-of-month');
          assert.equal(referenceNext(fields, after), null, `${text} was refused but matches`);
          return;
        }
        assert.equal(iso(actual), iso(referenceNext(fields, after)!), text);
      }),
      { numRuns: 300 },
    );
  });

  it('@every times are the multiples of the interval after the offset, strictly increasing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat({ max: 9_999 }), fc.integer({ min: 0, max: 2 ** 42 }), (seconds, offsetSeconds, after) => {
        const offset = offsetSeconds % seconds;
        const next = nextCronTime(`@every ${seconds}s/${offset}s`, after);
        assert.ok(next > after && next - after <= seconds * 1000);
        assert.equal((next - offset * 1000) % (seconds * 1000), 0);
      }),
    );
  });
});
