import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronOfCalendar } from './schedule-calendars.js';

test('a calendar becomes the cron expression with seconds first: defaults 0 for second, minute and hour, every value for the rest', () => {
  assert.equal(cronOfCalendar({}), '0 0 0 * * *');
  assert.equal(cronOfCalendar({ hour: 9, dayOfWeek: 'MONDAY' }), '0 0 9 * * 1');
  assert.equal(cronOfCalendar({ minute: { start: 0, end: 59, step: 15 }, hour: [8, { start: 12, end: 14 }], month: ['JANUARY', 'july' as 'JULY'] }), '0 0-59/15 8,12-14 * 1,7 *');
  assert.equal(cronOfCalendar({ second: '*', dayOfMonth: { start: 1, step: 1 }, year: '*', comment: 'first of the month' }), '* 0 0 1 * *');
  // A range without an end is its start alone, step or not (cron would read 5/10 as every 10 from 5).
  assert.equal(cronOfCalendar({ minute: { start: 5, step: 10 }, hour: '*' }), '0 5 * * * *');
  assert.equal(cronOfCalendar({ dayOfWeek: { start: 'MONDAY', end: 'MONDAY', step: 2 } }), '0 0 0 * * 1');
});

test('calendars cron cannot express the same way, and values out of range, are refused naming the field', () => {
  const refused = (calendar: object, message: RegExp) => assert.throws(() => cronOfCalendar(calendar as never, 'spec.calendars[2]'), (e: unknown) => e instanceof TypeError && message.test(e.message));
  refused({ year: 2027 }, /spec\.calendars\[2\]\.year: calendars limited to some years are not supported yet/);
  refused({ dayOfMonth: 1, dayOfWeek: 'MONDAY' }, /both dayOfMonth and dayOfWeek is not supported yet/);
  refused({ hour: 24 }, /\.hour must be a whole number from 0 to 23, got 24/);
  refused({ minute: -1 }, /\.minute must be a whole number from 0 to 59/);
  refused({ second: 1.5 }, /\.second must be a whole number/);
  refused({ month: 'SMARCH' }, /"SMARCH" is not one of JANUARY/);
  refused({ hour: { start: 10, end: 2 } }, /end 2 is before start 10/);
  refused({ hour: { start: 1, end: 5, step: 0 } }, /step must be a whole number ≥ 1/);
  refused({ hour: [] }, /empty list/);
  refused({ hours: 9 }, /has hours; a calendar has second, minute/);
  refused({ minute: '1; rm -rf /' }, /\.minute must be a whole number/);
});
