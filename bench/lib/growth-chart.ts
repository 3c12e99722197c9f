// Charts of bench/results/growth.json (the growth scenario's rows {measure, n, per_item_ms}): the
// cost per item of every measure against the company's size n, both axes logarithmic, so a flat
// line is a cost that does not grow with the company and a rising one is a problem. One SVG with
// every measure (bench/results/growth.svg) and one per measure (bench/results/growth-charts/), drawn
// by Vega in node (no browser). Called by the scenario after a run, and alone to redraw them from
// an existing file: `npm run bench:growth-chart [-- <growth.json>]`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, type Spec, View } from 'vega';
import type { GrowthRow } from './growth-world.js';
import { repoRoot } from './processes.js';

const RESULTS = path.join(repoRoot, 'bench', 'results');

/** A Vega spec: one line and its points per measure, `legend` naming them by colour. */
function spec(rows: GrowthRow[], options: { title: string; legend: boolean; labels: boolean }): Spec {
  const sizes = [...new Set(rows.map((row) => row.n))].sort((a, b) => a - b);
  return {
    $schema: 'https://vega.github.io/schema/vega/v6.json',
    width: 560,
    height: 320,
    padding: 8,
    background: 'white',
    title: { text: options.title, anchor: 'start' },
    data: [{ name: 'rows', values: rows }],
    scales: [
      { name: 'x', type: 'log', domain: { data: 'rows', field: 'n' }, range: 'width', padding: 24, nice: false },
      { name: 'y', type: 'log', domain: { data: 'rows', field: 'per_item_ms' }, range: 'height', padding: 16, nice: true },
      { name: 'color', type: 'ordinal', domain: { data: 'rows', field: 'measure', sort: true }, range: { scheme: 'category20' } },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'employees in the company (n, log)', values: sizes, format: ',d', grid: true },
      { orient: 'left', scale: 'y', title: 'cost per item (ms, log)', format: '~g', grid: true },
    ],
    legends: options.legend ? [{ fill: 'color', stroke: 'color', title: 'measure', orient: 'right', labelLimit: 320 }] : [],
    marks: [
      {
        type: 'group',
        from: { facet: { name: 'series', data: 'rows', groupby: 'measure' } },
        marks: [
          {
            type: 'line',
            from: { data: 'series' },
            sort: { field: 'datum.n' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'n' },
                y: { scale: 'y', field: 'per_item_ms' },
                stroke: { scale: 'color', field: 'measure' },
                strokeWidth: { value: 2 },
              },
            },
          },
          {
            type: 'symbol',
            from: { data: 'series' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'n' },
                y: { scale: 'y', field: 'per_item_ms' },
                fill: { scale: 'color', field: 'measure' },
                size: { value: 40 },
              },
            },
          },
          ...(options.labels
            ? [
                {
                  type: 'text' as const,
                  from: { data: 'series' },
                  encode: {
                    enter: {
                      x: { scale: 'x', field: 'n' },
                      y: { scale: 'y', field: 'per_item_ms', offset: -10 },
                      text: { signal: "format(datum.per_item_ms, '.3~g') + ' ms'" },
                      align: { value: 'center' as const },
                      fontSize: { value: 11 },
                    },
                  },
                },
              ]
            : []),
        ],
      },
    ],
  };
}

async function svg(chart: Spec): Promise<string> {
  const view = new View(parse(chart), { renderer: 'none' });
  const text = await view.toSVG();
  view.finalize();
  return text;
}

const slug = (measure: string) =>
  measure
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Writes growth.svg and growth-charts/<measure>.svg into `dir`; returns the files written. */
export async function writeGrowthCharts(rows: GrowthRow[], dir = RESULTS): Promise<string[]> {
  if (rows.length === 0) throw new Error('no growth rows to chart');
  const measures = [...new Set(rows.map((row) => row.measure))];
  const sizes = [...new Set(rows.map((row) => row.n))].sort((a, b) => a - b);
  const span = sizes.map((n) => n.toLocaleString('en')).join(', ');
  const written = [path.join(dir, 'growth.svg')];
  fs.mkdirSync(path.join(dir, 'growth-charts'), { recursive: true });
  fs.writeFileSync(written[0], await svg(spec(rows, { title: `Growth: cost per item against n (${span})`, legend: true, labels: false })));
  for (const measure of measures) {
    const file = path.join(dir, 'growth-charts', `${slug(measure)}.svg`);
    const own = rows.filter((row) => row.measure === measure);
    fs.writeFileSync(file, await svg(spec(own, { title: `${measure}: cost per item against n`, legend: false, labels: true })));
    written.push(file);
  }
  return written;
}

/** `npm run bench:growth-chart [-- <growth.json>]`: redraws the charts next to that file. */
async function main(): Promise<void> {
  const file = path.resolve(process.argv[2] ?? path.join(RESULTS, 'growth.json'));
  const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as GrowthRow[];
  const written = await writeGrowthCharts(rows, path.dirname(file));
  console.log(`${written.length} charts: ${written.map((name) => path.relative(process.cwd(), name)).join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
