import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchChart } from './bench-chart.js';
import { niceTicks, renderSvg } from './svg-chart.js';

/**
 * A strict little XML well-formedness check (enough for the SVG we write): one root element, tags
 * balanced and properly nested, attributes quoted, `&` only as a predefined entity, no stray `<`.
 */
function assertWellFormedXml(xml: string): void {
  const entity = /&(?!(amp|lt|gt|quot|apos);)/;
  const attribute = /^\s+[A-Za-z_:][\w:.-]*="[^"<]*"/;
  const stack: string[] = [];
  let roots = 0;
  let position = 0;
  for (const match of xml.matchAll(/<[^>]*>/g)) {
    const text = xml.slice(position, match.index);
    assert.ok(!text.includes('<') && !entity.test(text), `text before offset ${match.index} is escaped: ${text.slice(0, 60)}`);
    position = match.index + match[0].length;
    const tag = match[0];
    const close = /^<\/([A-Za-z][\w:-]*)\s*>$/.exec(tag);
    if (close) {
      assert.equal(stack.pop(), close[1], `</${close[1]}> closes the element that is open`);
      continue;
    }
    const open = /^<([A-Za-z][\w:-]*)(.*?)(\/?)>$/s.exec(tag);
    assert.ok(open, `a well-formed tag: ${tag.slice(0, 80)}`);
    let attributes = open[2]!;
    while (attributes.trim() !== '') {
      const a = attribute.exec(attributes);
      assert.ok(a && !entity.test(a[0]), `quoted, escaped attributes in ${tag.slice(0, 80)}`);
      attributes = attributes.slice(a[0].length);
    }
    if (stack.length === 0) roots++;
    if (open[3] !== '/') stack.push(open[1]!);
  }
  assert.equal(xml.slice(position).trim(), '', 'nothing after the root element');
  assert.deepEqual(stack, [], 'every element is closed');
  assert.equal(roots, 1, 'exactly one root element');
}

/** The SVG elements inside the series group of that name. */
function seriesBody(svg: string, name: string): string {
  const start = svg.indexOf(`data-series="${name}"`);
  assert.ok(start >= 0, `series ${name} is drawn`);
  return svg.slice(start, svg.indexOf('</g>', start));
}

const run = {
  startedAt: '2026-11-30T12:00:00.000Z',
  settings: { backend: 'kafka', shards: 4 },
  machine: { cpus: 2, cpuModel: 'AMD EPYC', node: 'v20' },
  w1: {
    sweep: [
      { offeredPerSecond: 25, completedPerSecond: 24.6, latency: { p99: 185 } },
      { offeredPerSecond: 50, completedPerSecond: 49.1, latency: { p99: 257 } },
      { offeredPerSecond: 100, completedPerSecond: 80.2, latency: { p99: 3051 } },
    ],
  },
  w4: {
    offeredPerSecond: 20,
    killAtSecond: 5.02,
    restartedAtSecond: 9.4,
    recoveredAtSecond: 10,
    loadEndedAtSecond: 15,
    timeline: Array.from({ length: 16 }, (_, second) => ({ second, offered: 20, completed: second >= 5 && second < 10 ? 0 : 20 })),
  },
};

test('the bench chart is well-formed SVG holding the W1 sweep and the W4 timeline with its markers', () => {
  const svg = renderSvg(benchChart(run));
  assertWellFormedXml(svg);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  // W1: offered and completed per step (a point per step), and p99 latency per step.
  const completedW1 = seriesBody(svg, 'completed');
  assert.equal(/points="([^"]*)"/.exec(completedW1)![1]!.split(' ').length, 3, 'one W1 point per sweep step');
  assert.equal((seriesBody(svg, 'p99 latency').match(/<circle /g) ?? []).length, 3);
  assert.ok(svg.includes('data-series="offered"'));
  // W4: one bar per second of the timeline, and its markers.
  const w4 = svg.slice(svg.indexOf('W4 recovery'));
  assert.equal((seriesBody(w4, 'completed').match(/<rect /g) ?? []).length, 16, 'one bar per second');
  for (const marker of ['kill -9', 'engine ready', 'recovered', 'load stops']) assert.ok(w4.includes(`data-marker="${marker}"`), `marker ${marker}`);
});

test('a missing or failed workload adds no panel, and names are escaped', () => {
  const chart = benchChart({ ...run, w1: { error: 'broker went away' }, w4: undefined });
  assert.equal(chart.panels.length, 0);
  assertWellFormedXml(renderSvg(chart));
  const odd = renderSvg({ title: 'a < b & "c"', panels: [{ title: "<W'x>", xLabel: 'x', yLabel: 'y', series: [{ name: 'p&q', points: [[0, 1], [1, 2]] }] }] });
  assertWellFormedXml(odd);
  assert.ok(odd.includes('data-series="p&amp;q"'));
});

test('the well-formedness check rejects broken markup', () => {
  assert.throws(() => assertWellFormedXml('<svg><g></svg>'));
  assert.throws(() => assertWellFormedXml('<svg><text>a & b</text></svg>'));
  assert.throws(() => assertWellFormedXml('<svg a=b></svg>'));
});

test('ticks step by 1, 2 or 5 times a power of ten and cover the range', () => {
  assert.deepEqual(niceTicks(0, 37), [0, 10, 20, 30, 40]);
  assert.deepEqual(niceTicks(0, 0.9), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(0, 3051), [0, 1000, 2000, 3000, 4000]);
});
