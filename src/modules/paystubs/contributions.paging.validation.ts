// S4/S5 paging (docs/payroll.md). The interface documents `{message, data: [...]}` with every
// record and no paginator; reading every paystub of a large company in one request is unbounded
// work, so both take optional `page` and `per_page` (default and maximum 1000: a company with up to
// 1000 paystubs still gets all of them in one answer, as documented) and add `meta`.
import { DomainError } from '../../platform/errors.js';

export const CONTRIBUTIONS_PER_PAGE = 1000;

export interface PageQuery {
  page?: unknown;
  per_page?: unknown;
}

export interface ContributionsPage {
  page: number;
  perPage: number;
}

function positiveInt(raw: unknown, field: string, max: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  // Settings family: validation is 422 {error: message} (docs/reference.md, "Common rules").
  if (!(value >= 1 && value <= max)) throw new DomainError('validation', `The ${field} must be an integer from 1 to ${max}.`);
  return value;
}

export function contributionsPage(query: PageQuery): ContributionsPage {
  return {
    page: positiveInt(query.page, 'page', 1_000_000, 1),
    perPage: positiveInt(query.per_page, 'per_page', CONTRIBUTIONS_PER_PAGE, CONTRIBUTIONS_PER_PAGE),
  };
}

/** LIMIT/OFFSET for a page, reading one row more to know whether another page follows. */
export function sqlPage(page: ContributionsPage): { limit: number; offset: number } {
  return { limit: page.perPage + 1, offset: (page.page - 1) * page.perPage };
}
