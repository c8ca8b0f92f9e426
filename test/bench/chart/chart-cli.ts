/**
 * Redraws the chart of saved bench results: `npx tsx test/bench/chart/chart-cli.ts RESULT.json…`
 * writes RESULT.svg next to each (for example after a new workload added its panel builder).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { benchChart } from './bench-chart.js';
import { renderSvg } from './svg-chart.js';

const files = process.argv.slice(2);
if (files.length === 0 || files.some((f) => !f.endsWith('.json'))) throw new Error('usage: chart-cli.ts RESULT.json…');
for (const file of files) {
  const svg = file.replace(/\.json$/, '.svg');
  await writeFile(svg, renderSvg(benchChart(JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>)));
  console.log(svg);
}
