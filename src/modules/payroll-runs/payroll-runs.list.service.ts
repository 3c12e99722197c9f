// A page of one company's runs (GET /api/payroll-runs, Console → Payroll): the filters checked,
// the page, its count and each run's paystubs by status read in one statement (payroll-runs.list.repo.ts).
// `order` is the console's (its sortable columns); the API lists newest first.
import type { Db } from '../../db/client.js';
import { invalid } from '../../platform/errors.js';
import { laravelPage, pageOffset } from '../../platform/paginator.js';
import { validDate } from '../paystubs/index.js';
import { type RunFilters, type RunOrder, runListRepo } from './payroll-runs.list.repo.js';
import { MESSAGES } from './payroll-runs.lookup.service.js';
import { serializeRun } from './payroll-runs.serializer.js';

export interface RunListQuery {
  status?: string;
  kind?: string;
  pay_period_start?: string;
  pay_period_end?: string;
  page?: number;
  per_page?: number;
}

export function createRunList(deps: { db: Db; config: { publicUrl: string } }) {
  const { db, config } = deps;
  return async function list(companyId: number, query: RunListQuery, rawQuery: Record<string, unknown>, order?: RunOrder) {
    const fields: Record<string, string[]> = {};
    for (const field of ['pay_period_start', 'pay_period_end'] as const) {
      const value = query[field];
      if (value !== undefined && !validDate(value))
        fields[field] = [`The ${field.replace(/_/g, ' ')} field must be a valid date in the format YYYY-MM-DD.`];
    }
    if (Object.keys(fields).length > 0) throw invalid(fields);
    const filters: RunFilters = {
      status: query.status,
      kind: query.kind,
      periodFrom: query.pay_period_start,
      periodTo: query.pay_period_end,
    };
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    const { total, rows } = await runListRepo.page(db, companyId, filters, perPage, pageOffset(page, perPage), order);
    const data = rows.map((row) => serializeRun(row.run, row.counts));
    return {
      message: MESSAGES.listed,
      data: laravelPage({ publicUrl: config.publicUrl, path: '/api/payroll-runs', rawQuery, page, perPage }, total, data),
    };
  };
}
