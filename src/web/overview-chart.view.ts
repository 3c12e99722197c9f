// The overview's chart of the last twelve months of net pay and tax: a server-rendered SVG (no
// script, no CDN), bars per month, with <title>/<desc> and an aria-label so a screen reader gets
// the figures the bars show. Pure: figures in, markup out (overview-chart.view.test.ts).
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';

export interface ChartMonth {
  /** `YYYY-MM` */
  month: string;
  /** Naira, two decimals, exact (`"1250000.00"`). */
  net_pay: string;
  tax_withheld: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const CHART = { width: 720, height: 240, top: 16, bottom: 40, left: 8, right: 8 } as const;
const NET_COLOUR = '#1f6f43';
const TAX_COLOUR = '#b35c00';

/** `Nov 2026` */
export function monthLabel(month: string): string {
  return `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

/** Kobo of an exact decimal string (the scale is drawn from whole kobo, never from floats summed). */
function kobo(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '') || '0') * 100n + BigInt(`${fraction}00`.slice(0, 2)));
}

/** Bar height in whole pixels: proportional to the largest figure, at least 1 px for any non-zero amount. */
export function barHeight(amount: bigint, max: bigint, plot: number): number {
  if (amount <= 0n || max <= 0n) return 0;
  return Math.max(1, Number((amount * BigInt(plot)) / max));
}

/** The spoken summary: every month's figures, so the chart says nothing the text does not. */
export function chartDescription(months: ChartMonth[]): string {
  const paid = months.filter((m) => kobo(m.net_pay) > 0n || kobo(m.tax_withheld) > 0n);
  if (paid.length === 0)
    return `No payroll was paid from ${monthLabel(months[0].month)} to ${monthLabel(months[months.length - 1].month)}.`;
  return `${paid.map((m) => `${monthLabel(m.month)}: net pay ${naira(m.net_pay)}, tax ${naira(m.tax_withheld)}`).join('; ')}.`;
}

export function overviewChart(months: ChartMonth[]): Html {
  const { width, height, top, bottom, left, right } = CHART;
  const plot = height - top - bottom;
  // The largest figure (bigint: Math.max takes numbers only).
  let max = 0n;
  for (const row of months) for (const value of [kobo(row.net_pay), kobo(row.tax_withheld)]) if (value > max) max = value;
  const slot = (width - left - right) / months.length;
  const bar = Math.floor(slot * 0.35);
  const base = top + plot;
  const title = `Net pay and tax paid, ${monthLabel(months[0].month)} to ${monthLabel(months[months.length - 1].month)}`;
  const bars = months.map((m, i) => {
    const x = Math.round(left + i * slot + slot / 2 - bar);
    const net = barHeight(kobo(m.net_pay), max, plot);
    const tax = barHeight(kobo(m.tax_withheld), max, plot);
    return html`<g><rect class="net" x="${x}" y="${base - net}" width="${bar}" height="${net}" fill="${NET_COLOUR}"><title>${monthLabel(m.month)} net pay ${naira(m.net_pay)}</title></rect><rect class="tax" x="${x + bar}" y="${base - tax}" width="${bar}" height="${tax}" fill="${TAX_COLOUR}"><title>${monthLabel(m.month)} tax ${naira(m.tax_withheld)}</title></rect><text x="${x + bar}" y="${base + 16}" text-anchor="middle" font-size="11">${monthLabel(m.month).slice(0, 3)}</text><text x="${x + bar}" y="${base + 30}" text-anchor="middle" font-size="10" fill="#666">${m.month.slice(2, 4)}</text></g>`;
  });
  return html`<figure class="chart">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}" aria-describedby="chart-desc">
<title id="chart-title">${title}</title>
<desc id="chart-desc">${chartDescription(months)}</desc>
<line x1="${left}" y1="${base}" x2="${width - right}" y2="${base}" stroke="#999" stroke-width="1"/>
${bars}
</svg>
<figcaption><span class="key net">■</span> Net pay <span class="key tax">■</span> Tax withheld (PAYE) · paid runs by payment date</figcaption>
</figure>`;
}
