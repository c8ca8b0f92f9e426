import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chaosVerdict, type ChaosFigures } from './chaos-verdict.js';
import { FuzzTally } from './fuzz-tally.js';

function passing(): ChaosFigures {
  return {
    workflows: { offered: 100, notOffered: 0, startsConfirmed: 100, started: 100, completed: 100, lost: 0, stuck: 0, closedWrongly: 0 },
    history: { records: 2_000, events: 2_000, runs: 100, duplicatedEvents: 0, gappedRuns: 0, keyMismatches: 0, wrongShard: 0, undecodable: 0 },
    activities: { completed: 300, executions: 302, rerunsBeforeCompletion: 2, rerunsAfterCompletion: 0, completedWithoutExecution: 0 },
    kills: [
      { kind: 'engine-kill', target: 'engine-1', atSecond: 30, restartedAfterMs: 6_000, shards: [0, 1, 2, 3], recoveryMs: 8_000 },
      { kind: 'broker-kill', target: 'broker-3', atSecond: 45, restartedAfterMs: 20_000 },
    ],
    poison: { sent: 30, failedToSend: 0, deadLettered: 30, byKind: {}, otherDeadLetters: 0 },
    fuzz: { ...new FuzzTally().figures([]), requests: 2_000, planned: 2_000 },
    shardFailures: { total: 3, byCause: { input: 0, fault: 3, unexplained: 0 }, byKind: { lost: 3 } },
    crashes: [],
  };
}

test('a run whose figures meet every invariant passes, and its table shows each figure', () => {
  const verdict = chaosVerdict(passing());
  assert.deepEqual(verdict.failures, []);
  const rows = new Map(verdict.rows.map((r) => [r.figure, r]));
  assert.equal(rows.get('workflows lost')?.value, '0');
  assert.equal(rows.get('recovery after each engine kill, s (limit 10)')?.value, '8.0');
  assert.equal(rows.get('kills (engine / broker)')?.value, '1 / 1');
  assert.ok(verdict.rows.filter((r) => r.ok !== undefined).every((r) => r.ok));
});

test('each broken invariant fails the run with a line naming it', () => {
  const cases: Array<[string, (f: ChaosFigures) => ChaosFigures, RegExp]> = [
    ['lost', (f) => ({ ...f, workflows: { ...f.workflows, lost: 2 } }), /workflows lost: 2/],
    ['stuck', (f) => ({ ...f, workflows: { ...f.workflows, stuck: 5 } }), /workflows stuck: 5/],
    ['closed wrongly', (f) => ({ ...f, workflows: { ...f.workflows, closedWrongly: 1 } }), /closed otherwise/],
    ['not offered', (f) => ({ ...f, workflows: { ...f.workflows, notOffered: 3 } }), /3 of 103 starts could not be written/],
    ['duplicates', (f) => ({ ...f, history: { ...f.history, duplicatedEvents: 3 } }), /duplicated history events: 3/],
    ['gaps', (f) => ({ ...f, history: { ...f.history, gappedRuns: 1 } }), /not 1..n: 1/],
    ['misplaced', (f) => ({ ...f, history: { ...f.history, wrongShard: 1 } }), /keyed or placed/],
    ['reruns', (f) => ({ ...f, activities: { ...f.activities, rerunsAfterCompletion: 4 } }), /completed activities run again: 4/],
    ['input failures', (f) => ({ ...f, shardFailures: { ...f.shardFailures, byCause: { input: 7, fault: 0, unexplained: 0 } } }), /caused by a bad input: 7/],
    ['5xx', (f) => ({ ...f, fuzz: { ...f.fuzz, serverErrors: 9, serverErrorsByStatus: { 500: 5, 504: 4 }, timeoutsAsAsked: 3 } }), /fuzz 5xx .*: 9 \(500: 5, 504: 4; 3 of the 504s answered a short timeout/],
    ['hangs', (f) => ({ ...f, fuzz: { ...f.fuzz, hangs: 1 } }), /fuzz hangs .*: 1/],
    ['short fuzz', (f) => ({ ...f, fuzz: { ...f.fuzz, requests: 1_500 } }), /sent 1500 of its 2000/],
    ['slow recovery', (f) => ({ ...f, kills: [{ kind: 'engine-kill', target: 'engine-2', atSecond: 60, restartedAfterMs: 5_000, shards: [4], recoveryMs: 14_200 }] }), /engine-2 at 60 s → 14.2 s/],
    ['no recovery', (f) => ({ ...f, kills: [{ kind: 'engine-kill', target: 'engine-1', atSecond: 90, restartedAfterMs: null, shards: [1], recoveryMs: null }] }), /engine-1 at 90 s → never/],
    ['crash', (f) => ({ ...f, crashes: ['engine-2 exited with code 1'] }), /engine-2 exited with code 1/],
  ];
  for (const [name, breakIt, message] of cases) {
    const { failures } = chaosVerdict(breakIt(passing()));
    assert.equal(failures.length, 1, `${name}: ${failures.join(' | ')}`);
    assert.match(failures[0]!, message, name);
  }
});

test('shard failures caused by Kafka faults, and at-least-once re-runs before a completion, are shown but fail nothing', () => {
  const f = passing();
  const verdict = chaosVerdict({ ...f, shardFailures: { total: 40, byCause: { input: 0, fault: 30, unexplained: 10 }, byKind: { lost: 40 } }, activities: { ...f.activities, rerunsBeforeCompletion: 12 } });
  assert.deepEqual(verdict.failures, []);
  assert.equal(verdict.rows.find((r) => r.figure.startsWith('shard failures ('))?.value, '40 (0 / 30 / 10)');
});
