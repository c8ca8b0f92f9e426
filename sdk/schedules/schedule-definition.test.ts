import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CATCHUP_WINDOW_MS, isScheduleDefinition, scheduleDefinitionOf, ScheduleDefinitionError } from './schedule-definition.js';
import { actionTimesBetween, jitterOf, nextActionTime } from './schedule-times.js';

const action = { workflowType: 'report', taskQueue: 'reports' };
const at = (iso: string) => Date.parse(iso);

describe('schedule definitions', () => {
  it('fills Temporal\'s defaults: overlap SKIP, a one-year catch-up window, not paused, unlimited actions, the schedule id as workflow id', () => {
    const definition = scheduleDefinitionOf({ spec: { cronExpressions: ['@daily'] }, action }, 'nightly');
    assert.deepEqual(definition.policies, { overlap: 'SKIP', catchupWindowMs: DEFAULT_CATCHUP_WINDOW_MS });
    assert.deepEqual(definition.state, { paused: false, note: '', remainingActions: null });
    assert.equal(definition.action.workflowId, 'nightly');
    assert.deepEqual(definition.action.args, []);
    assert.deepEqual(definition.spec, { intervals: [], cronExpressions: ['@daily'], startAtMs: null, endAtMs: null, jitterMs: 0 });
  });

  it('converts durations and times from their text forms', () => {
    const definition = scheduleDefinitionOf({
      spec: { intervals: [{ every: '1h', offset: '15m' }], startAt: '2026-01-01T00:00:00Z', endAt: 1_800_000_000_000, jitter: '30s' },
      action: { ...action, workflowId: 'r', args: [1, 'a'], workflowRunTimeout: '10m' },
      policies: { overlap: 'BUFFER_ALL', catchupWindow: '5m' },
      state: { paused: true, note: 'later', remainingActions: 3 },
    });
    assert.deepEqual(definition.spec.intervals, [{ everyMs: 3_600_000, offsetMs: 900_000 }]);
    assert.equal(definition.spec.startAtMs, at('2026-01-01T00:00:00Z'));
    assert.equal(definition.spec.endAtMs, 1_800_000_000_000);
    assert.equal(definition.spec.jitterMs, 30_000);
    assert.equal(definition.action.workflowRunTimeoutMs, 600_000);
    assert.deepEqual(definition.policies, { overlap: 'BUFFER_ALL', catchupWindowMs: 300_000 });
    assert.deepEqual(definition.state, { paused: true, note: 'later', remainingActions: 3 });
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    ['no spec at all', { action }, /'spec' must be an object/],
    ['an empty spec', { spec: {}, action }, /at least one of 'intervals' or 'cronExpressions'/],
    ['a bad cron field', { spec: { cronExpressions: ['0 25 * * *'] }, action }, /'spec.cronExpressions\[0\]': invalid cron expression: hour: 25 is out of range 0-23/],
    ['an interval below 1 s', { spec: { intervals: [{ every: 500 }] }, action }, /'spec.intervals\[0\].every' must be at least 1s/],
    ['an offset not below the interval', { spec: { intervals: [{ every: '1m', offset: '1m' }] }, action }, /'spec.intervals\[0\].offset' must be smaller/],
    ['a malformed duration', { spec: { intervals: [{ every: 'soon' }] }, action }, /spec.intervals\[0\].every: invalid duration "soon"/],
    ['an end before the start', { spec: { intervals: [{ every: '1m' }], startAt: '2026-02-01T00:00:00Z', endAt: '2026-01-01T00:00:00Z' }, action }, /'spec.endAt' is before 'spec.startAt'/],
    ['a malformed time', { spec: { intervals: [{ every: '1m' }], startAt: 'tomorrow' }, action }, /'spec.startAt' must be an RFC 3339 time/],
    ['no workflow type', { spec: { intervals: [{ every: '1m' }] }, action: { taskQueue: 'q' } }, /'action.workflowType' must be a non-empty string/],
    ['an unknown overlap policy', { spec: { intervals: [{ every: '1m' }] }, action, policies: { overlap: 'SOMETIMES' } }, /'policies.overlap' must be one of SKIP, BUFFER_ONE/],
    ['a catch-up window below 10 s', { spec: { intervals: [{ every: '1m' }] }, action, policies: { catchupWindow: '5s' } }, /'policies.catchupWindow' must be at least 10s/],
    ['negative remaining actions', { spec: { intervals: [{ every: '1m' }] }, action, state: { remainingActions: -1 } }, /'state.remainingActions' must be an integer ≥ 0/],
  ];
  for (const [what, input, message] of refusals) {
    it(`refuses ${what}, naming the field`, () => {
      assert.throws(() => scheduleDefinitionOf(input, 'id'), (error: unknown) => error instanceof ScheduleDefinitionError && message.test(error.message));
    });
  }
});

describe('the shape check of definitions the scheduler receives', () => {
  const good = scheduleDefinitionOf({ spec: { intervals: [{ every: '1m' }], cronExpressions: ['@daily'] }, action, state: { remainingActions: 2 } }, 'id');

  it('accepts every checked definition', () => {
    assert.equal(isScheduleDefinition(good), true);
    assert.equal(isScheduleDefinition(JSON.parse(JSON.stringify(good))), true);
  });

  it('refuses what a checked definition never is', () => {
    const broken: unknown[] = [
      null,
      'every day',
      { ...good, spec: 'hourly' },
      { ...good, spec: { ...good.spec, cronExpressions: ['0 25 * * *'] } },
      { ...good, spec: { ...good.spec, intervals: [{ everyMs: 10, offsetMs: 0 }] } },
      { ...good, action: { ...good.action, args: 'x' } },
      { ...good, policies: { ...good.policies, overlap: 'SOMETIMES' } },
      { ...good, state: { ...good.state, remainingActions: -1 } },
    ];
    for (const value of broken) assert.equal(isScheduleDefinition(value), false, JSON.stringify(value));
  });
});

describe('schedule times', () => {
  const spec = (overrides: object) => scheduleDefinitionOf({ spec: overrides, action }, 'id').spec;

  it('an interval acts at its offset past each multiple since the epoch', () => {
    const every15 = spec({ intervals: [{ every: '15m', offset: '5m' }] });
    assert.equal(nextActionTime(every15, at('2026-03-01T10:00:00Z')), at('2026-03-01T10:05:00Z'));
    assert.equal(nextActionTime(every15, at('2026-03-01T10:05:00Z')), at('2026-03-01T10:20:00Z'));
  });

  it('the union of intervals and cron expressions acts at the earliest of them', () => {
    const both = spec({ intervals: [{ every: '1h' }], cronExpressions: ['30 10 * * *'] });
    assert.deepEqual(actionTimesBetween(both, at('2026-03-01T09:59:00Z'), at('2026-03-01T11:00:00Z'), 10), [
      at('2026-03-01T10:00:00Z'), at('2026-03-01T10:30:00Z'), at('2026-03-01T11:00:00Z'),
    ]);
  });

  it('a spec\'s timeZone applies to its cron expressions without a zone of their own, daylight saving included', () => {
    const paris = spec({ cronExpressions: ['0 9 * * *', 'CRON_TZ=UTC 0 12 * * *'], timeZone: 'Europe/Paris' });
    assert.deepEqual(paris.cronExpressions, ['CRON_TZ=Europe/Paris 0 9 * * *', 'CRON_TZ=UTC 0 12 * * *']);
    assert.equal(paris.timeZone, 'Europe/Paris');
    // 09:00 in Paris: 07:00 UTC in summer (CEST), 08:00 UTC in winter (CET).
    assert.equal(nextActionTime(paris, at('2026-07-01T00:00:00Z')), at('2026-07-01T07:00:00Z'));
    assert.equal(nextActionTime(paris, at('2026-01-10T00:00:00Z')), at('2026-01-10T08:00:00Z'));
    assert.deepEqual(spec({ cronExpressions: ['@every 1h'], timeZone: 'Europe/Paris' }).cronExpressions, ['@every 1h'], 'a time zone does not apply to @every');
    assert.throws(() => spec({ cronExpressions: ['0 9 * * *'], timeZone: 'Paris' }), /unknown time zone "Paris"/);
    assert.throws(() => spec({ cronExpressions: ['0 9 * * *'], timeZone: 5 }), /'spec.timeZone' must be an IANA time zone name/);
  });

  it('start and end bound the action times, both included', () => {
    const bounded = spec({ intervals: [{ every: '1h' }], startAt: '2026-03-01T12:00:00Z', endAt: '2026-03-01T14:00:00Z' });
    assert.deepEqual(actionTimesBetween(bounded, at('2026-03-01T00:00:00Z'), at('2026-03-02T00:00:00Z'), 10), [
      at('2026-03-01T12:00:00Z'), at('2026-03-01T13:00:00Z'), at('2026-03-01T14:00:00Z'),
    ]);
    assert.equal(nextActionTime(bounded, at('2026-03-01T14:00:00Z')), null);
  });

  it('actionTimesBetween stops at its limit', () => {
    assert.equal(actionTimesBetween(spec({ intervals: [{ every: '1s' }] }), 0, 1_000_000, 7).length, 7);
  });

  it('jitter is below the bound, the same for the same schedule and time, and differs across times', () => {
    const jitters = Array.from({ length: 50 }, (_, i) => jitterOf('s', i * 60_000, 10_000));
    assert.ok(jitters.every((j) => j >= 0 && j < 10_000));
    assert.deepEqual(jitters, Array.from({ length: 50 }, (_, i) => jitterOf('s', i * 60_000, 10_000)));
    assert.ok(new Set(jitters).size > 10, 'spread out');
    assert.equal(jitterOf('s', 0, 0), 0);
  });
});
