// Strict HTML templating without a template engine: `html` escapes every interpolated value unless
// it is already Html (produced by `html` itself or, deliberately, by `raw`). Arrays are joined, and
// null/undefined/false render as nothing, so conditionals and lists read naturally.

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

const EACH_SPECIAL = /[&<>"'`]/g;
/** The same class, not global: `test` then keeps no `lastIndex` between calls. */
const ANY_SPECIAL = new RegExp(EACH_SPECIAL.source);

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  // Most text has nothing to escape: one test instead of a replace that allocates its match state.
  return ANY_SPECIAL.test(value) ? value.replace(EACH_SPECIAL, (ch) => ESCAPES[ch]) : value;
}

export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  // A number's or a bigint's text has no character to escape.
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup only (constants written in this folder); never user or database text. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** `1 employee`, `2 employees`: counts in page text agree with their noun. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `22 Nov 2026, 10:15 UTC` — console times are shown in UTC, like the API. */
export function when(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}
