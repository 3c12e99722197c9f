// The overview chart as a table of cases: figures in, markup out (no database, no browser).
import { describe, expect, it } from 'vitest';
import { barHeight, CHART, type ChartMonth, chartDescription, monthLabel, overviewChart } from './overview-chart.view.js';

const months = (figures: [string, string][]) =>
  figures.map(([net_pay, tax_withheld], i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}`, net_pay, tax_withheld }));
const zero = months(Array.from({ length: 12 }, () => ['0.00', '0.00'] as [string, string]));
const PLOT = CHART.height - CHART.top - CHART.bottom;

describe('overview chart', () => {
  it.each([
    ['2026-01', 'Jan 2026'],
    ['2025-12', 'Dec 2025'],
    ['2026-11', 'Nov 2026'],
  ])('labels %s as %s', (month, label) => expect(monthLabel(month)).toBe(label));

  it.each<[bigint, bigint, number, number]>([
    // amount, max, plot → pixels
    [0n, 0n, 184, 0],
    [0n, 100n, 184, 0],
    [100n, 100n, 184, 184],
    [50n, 100n, 184, 92],
    [1n, 10_000_000_000n, 184, 1], // any non-zero amount stays visible
    [-5n, 100n, 184, 0], // a negative month (reversals) is drawn as nothing, the text still says it
    [3_333_333n, 10_000_000n, 184, 61], // whole pixels, rounded down, from kobo (no float sums)
  ])('bar of %s kobo over a max of %s in %s px is %s px', (amount, max, plot, px) => expect(barHeight(amount, max, plot)).toBe(px));

  it.each<[string, ChartMonth[], string]>([
    ['no payroll', zero, 'No payroll was paid from Jan 2026 to Dec 2026.'],
    [
      'two months',
      months([
        ['1000000.00', '150000.50'],
        ['0.00', '0.00'],
        ['0.01', '0.00'],
        ...Array.from({ length: 9 }, () => ['0.00', '0.00'] as [string, string]),
      ]),
      'Jan 2026: net pay ₦1,000,000.00, tax ₦150,000.50; Mar 2026: net pay ₦0.01, tax ₦0.00.',
    ],
  ])('describes %s in words', (_name, input, text) => {
    expect(chartDescription(input)).toBe(text);
    expect(overviewChart(input).value).toContain(`<desc id="chart-desc">${text}</desc>`);
  });

  it('draws 12 pairs of bars scaled to the largest figure, with a title, a description and an aria-label', () => {
    const input = months([
      ['2000000.00', '400000.00'],
      ['1000000.00', '200000.00'],
      ...Array.from({ length: 10 }, () => ['0.00', '0.00'] as [string, string]),
    ]);
    const svg = overviewChart(input).value;
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-label="Net pay and tax paid, Jan 2026 to Dec 2026"');
    expect(svg).toContain('<title id="chart-title">Net pay and tax paid, Jan 2026 to Dec 2026</title>');
    expect(svg.match(/<rect class="net"/g)).toHaveLength(12);
    expect(svg.match(/<rect class="tax"/g)).toHaveLength(12);
    const heights = [...svg.matchAll(/<rect class="(net|tax)"[^>]* height="(\d+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(heights.slice(0, 4)).toEqual([`net:${PLOT}`, `tax:${Math.floor(PLOT / 5)}`, `net:${PLOT / 2}`, `tax:${Math.floor(PLOT / 10)}`]);
    expect(heights.slice(4).every((h) => h.endsWith(':0'))).toBe(true);
    expect(svg).not.toContain('<script');
  });

  it('writes the exact figure of each bar in its title', () => {
    const svg = overviewChart(months(Array.from({ length: 12 }, () => ['1.00', '0.00'] as [string, string]))).value;
    expect(svg).toContain('<title>Jan 2026 net pay ₦1.00</title>');
  });
});
