/**
 * A small SVG chart renderer for the benchmark results: panels stacked vertically, each an x/y plot
 * of line, dashed-line or bar series with optional vertical markers. Pure (string in, string out)
 * and hand-written, so the bench needs no charting dependency.
 *
 * Every series is drawn inside `<g class="series" data-series="NAME">` and every marker inside
 * `<g class="marker" data-marker="LABEL">`, so tests (and people reading the file) find them by name.
 */

/** One data series of a panel: points in data units. */
export interface ChartSeries {
  readonly name: string;
  readonly points: ReadonlyArray<readonly [x: number, y: number]>;
  /** Default `line`. Bars are centred on their x and as wide as the smallest x step allows. */
  readonly style?: 'line' | 'dashed' | 'bars';
}

/** A labelled vertical line at an x value (for example "kill -9"). */
export interface ChartMarker {
  readonly x: number;
  readonly label: string;
}

/** One x/y plot. */
export interface ChartPanel {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
  readonly markers?: readonly ChartMarker[];
}

/** A whole chart: a heading and its panels, top to bottom. */
export interface Chart {
  readonly title: string;
  readonly subtitle?: string;
  readonly panels: readonly ChartPanel[];
}

const WIDTH = 760;
const HEADER = 56;
const PANEL_HEIGHT = 290;
const MARGIN = { left: 70, right: 24, top: 52, bottom: 50 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const MARKER_COLOUR = '#b22222';

/** Renders the chart as a standalone SVG document. */
export function renderSvg(chart: Chart): string {
  const height = HEADER + Math.max(1, chart.panels.length) * PANEL_HEIGHT;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(chart.title)}</text>`,
  ];
  if (chart.subtitle) parts.push(`<text x="${WIDTH / 2}" y="44" text-anchor="middle" fill="#555555">${escapeXml(chart.subtitle)}</text>`);
  if (chart.panels.length === 0) parts.push(`<text x="${WIDTH / 2}" y="${HEADER + 40}" text-anchor="middle">no workload result to chart</text>`);
  chart.panels.forEach((panel, i) => parts.push(renderPanel(panel, HEADER + i * PANEL_HEIGHT)));
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Tick values from 0 (or `min`) to at least `max`, on a 1-2-5 step, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min, min + 1];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t < max + step; t += step) {
    ticks.push(round(t));
    if (t >= max) break;
  }
  return ticks;
}

function renderPanel(panel: ChartPanel, top: number): string {
  const plot = { x: MARGIN.left, y: top + MARGIN.top, w: WIDTH - MARGIN.left - MARGIN.right, h: PANEL_HEIGHT - MARGIN.top - MARGIN.bottom };
  const points = panel.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const out = [`<g class="panel" data-panel="${escapeXml(panel.title)}">`, `<text x="${plot.x}" y="${top + 20}" font-size="14" font-weight="bold">${escapeXml(panel.title)}</text>`];
  out.push(renderLegend(panel.series, top + 38));
  if (points.length === 0) {
    out.push(`<text x="${plot.x + plot.w / 2}" y="${plot.y + plot.h / 2}" text-anchor="middle" fill="#555555">no data</text>`, '</g>');
    return out.join('\n');
  }
  const xs = [...points.map(([x]) => x), ...(panel.markers ?? []).map((m) => m.x)];
  const barHalf = panel.series.some((s) => s.style === 'bars') ? smallestStep(panel.series) / 2 : 0;
  // The x axis spans the data (plus room for bars or point markers); ticks fall inside it.
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const pad = barHalf || (xMax - xMin) * 0.03 || 1;
  const [x0, x1] = [xMin - pad, xMax + pad];
  const xTicks = niceTicks(x0, x1, 8).filter((t) => t >= x0 && t <= x1);
  const yTicks = niceTicks(0, Math.max(...points.map(([, y]) => y)));
  const [y0, y1] = [yTicks[0]!, yTicks.at(-1)!];
  const sx = (x: number) => round(plot.x + ((x - x0) / (x1 - x0)) * plot.w);
  const sy = (y: number) => round(plot.y + plot.h - ((y - y0) / (y1 - y0)) * plot.h);

  for (const t of yTicks) {
    out.push(`<line x1="${plot.x}" y1="${sy(t)}" x2="${plot.x + plot.w}" y2="${sy(t)}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${plot.x - 6}" y="${sy(t) + 4}" text-anchor="end">${formatTick(t)}</text>`);
  }
  for (const t of xTicks) out.push(`<text x="${sx(t)}" y="${plot.y + plot.h + 16}" text-anchor="middle">${formatTick(t)}</text>`);
  out.push(`<rect x="${plot.x}" y="${plot.y}" width="${plot.w}" height="${plot.h}" fill="none" stroke="#333333"/>`);
  out.push(`<text x="${plot.x + plot.w / 2}" y="${plot.y + plot.h + 36}" text-anchor="middle">${escapeXml(panel.xLabel)}</text>`);
  out.push(`<text transform="translate(${plot.x - 50} ${plot.y + plot.h / 2}) rotate(-90)" text-anchor="middle">${escapeXml(panel.yLabel)}</text>`);

  panel.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const finite = series.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    out.push(`<g class="series" data-series="${escapeXml(series.name)}" fill="${colour}" stroke="${colour}">`);
    if (series.style === 'bars') {
      const w = Math.max(1, sx(x0 + barHalf * 2) - sx(x0) - 1);
      for (const [x, y] of finite) out.push(`<rect x="${round(sx(x) - w / 2)}" y="${sy(y)}" width="${round(w)}" height="${round(sy(0) - sy(y))}" stroke="none"/>`);
    } else {
      const dash = series.style === 'dashed' ? ' stroke-dasharray="6 4"' : '';
      out.push(`<polyline fill="none" stroke-width="2"${dash} points="${finite.map(([x, y]) => `${sx(x)},${sy(y)}`).join(' ')}"/>`);
      if (series.style !== 'dashed' && finite.length <= 40) for (const [x, y] of finite) out.push(`<circle cx="${sx(x)}" cy="${sy(y)}" r="3"/>`);
    }
    out.push('</g>');
  });
  (panel.markers ?? []).forEach((marker, i) => {
    const x = sx(marker.x);
    // Labels alternate between two rows so neighbouring markers stay readable, and sit left of a line near the right edge.
    const y = plot.y + 14 + (i % 2) * 14;
    const label = x > plot.x + plot.w - 90 ? `x="${x - 4}" text-anchor="end"` : `x="${x + 4}"`;
    out.push(`<g class="marker" data-marker="${escapeXml(marker.label)}">`);
    out.push(`<line x1="${x}" y1="${plot.y}" x2="${x}" y2="${plot.y + plot.h}" stroke="${MARKER_COLOUR}" stroke-width="1.5" stroke-dasharray="3 3"/>`);
    out.push(`<text ${label} y="${y}" fill="${MARKER_COLOUR}" stroke="#ffffff" stroke-width="3" paint-order="stroke">${escapeXml(marker.label)}</text>`);
    out.push('</g>');
  });
  out.push('</g>');
  return out.join('\n');
}

function renderLegend(series: readonly ChartSeries[], y: number): string {
  let x = MARGIN.left;
  const items = series.map((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const swatch = s.style === 'bars'
      ? `<rect x="${x}" y="${y - 9}" width="14" height="10" fill="${colour}"/>`
      : `<line x1="${x}" y1="${y - 4}" x2="${x + 14}" y2="${y - 4}" stroke="${colour}" stroke-width="2"${s.style === 'dashed' ? ' stroke-dasharray="4 3"' : ''}/>`;
    const item = `${swatch}<text x="${x + 18}" y="${y}">${escapeXml(s.name)}</text>`;
    // A rough width per character keeps legend entries from overlapping without measuring text.
    x += 30 + s.name.length * 6.5;
    return item;
  });
  return `<g class="legend">${items.join('')}</g>`;
}

/** The smallest distance between distinct x values of the bar series (1 when there is none). */
function smallestStep(series: readonly ChartSeries[]): number {
  const xs = [...new Set(series.filter((s) => s.style === 'bars').flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < xs.length; i++) step = Math.min(step, xs[i]! - xs[i - 1]!);
  return Number.isFinite(step) && step > 0 ? step : 1;
}

function formatTick(value: number): string {
  if (Math.abs(value) >= 10_000) return `${round(value / 1000)}k`;
  return String(round(value));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
