import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { HistoryDriver, T0 } from './test-kit.js';
import type { TimerRef } from './timer-ref.js';
import { applyTimer } from './timers.js';

describe('timers (property)', () => {
  it('never fire before their time, fire once, and all fire once time has passed them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 10 }),
        (durations, steps, probes) => {
          const d = new HistoryDriver();
          d.start();
          d.completeWorkflowTask(durations.map((ms, i) => ({ type: 'StartTimer', timerId: `t${i}`, startToFireTimeoutMs: ms })));
          const seen = new Map<string, TimerRef>();
          const remember = () => d.timers().forEach((r) => seen.set(`${r.kind}/${r.identity}/${r.fireTime}`, r));
          remember();
          const events: HistoryEvent[] = [];
          for (const step of [...steps, 200_000]) {
            d.now += step;
            // Every ref ever armed, due or not, current or stale: only a due, armed one may act.
            for (const ref of [...seen.values()]) {
              for (const probe of probes) {
                const early = applyTimer(d.state!, ref, T0 + probe);
                if (ref.fireTime > T0 + probe) assert.deepEqual([early.changed, early.events], [false, []], `${ref.identity} fired early`);
              }
              const t = applyTimer(d.state!, ref, d.now);
              if (ref.fireTime > d.now) assert.deepEqual([t.changed, t.events], [false, []], `${ref.identity} fired early`);
              if (t.changed) {
                d.state = t.state;
                events.push(...t.events);
                d.tasks.push(...t.tasks);
              }
              remember();
            }
            if (d.state!.pendingWorkflowTask) events.push(...d.completeWorkflowTask([]).events);
            remember();
          }
          const fired = events.filter((e) => e.attributes.type === 'TimerFired');
          assert.equal(fired.length, durations.length, 'each timer fired exactly once');
          for (const e of fired) {
            const i = Number((e.attributes as { timerId: string }).timerId.slice(1));
            assert.ok(e.eventTime >= T0 + durations[i]!, `t${i} fired at ${e.eventTime - T0} before ${durations[i]}`);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
