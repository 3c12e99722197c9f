// The employees list: search, status filter, sorting by employee number or name, paging (the table:
// employees-list.view.ts). Employees come from the users module's search service (users.search),
// their rows through the ones this instance keeps (employee-rows.service.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { SEARCH_SORTS, USER_STATUSES } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { isOneOf } from '../platform/guards.js';
import { lastPageOf, pageOffset } from '../platform/paginator.js';
import { createEmployeeRows } from './employee-rows.service.js';
import { employeesTable, type ListSort } from './employees-list.view.js';
import { type Html, html } from './html.view.js';
import { page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export const EMPLOYEES_PER_PAGE = 25;

function pager(
  base: string,
  params: Record<string, string | undefined>,
  pageNo: number,
  lastPage: number,
  total: number,
  noun: string,
): Html {
  const link = (n: number) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
    search.set('page', String(n));
    return `${base}?${search.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages">
  ${pageNo > 1 ? html`<a href="${link(pageNo - 1)}" rel="prev">← Previous</a>` : ''}
  <span>Page ${pageNo} of ${lastPage} · ${total} ${noun}</span>
  ${pageNo < lastPage ? html`<a href="${link(pageNo + 1)}" rel="next">Next →</a>` : ''}
</nav>`;
}

export async function employeesListRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const employeeRows = createEmployeeRows(ctx.services.users.search);

  app.get(
    '/employees',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Type.Union([Type.Literal(''), ...USER_STATUSES.map((status) => Type.Literal(status))])),
          sort: Type.Optional(Type.Union([Type.Literal(''), ...SEARCH_SORTS.map((key) => Type.Literal(key))])),
          order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const pageNo = request.query.page ?? 1;
      const q = request.query.q?.trim() ?? '';
      const status = isOneOf(USER_STATUSES, request.query.status) ? request.query.status : undefined;
      const sort: ListSort = {
        key: isOneOf(SEARCH_SORTS, request.query.sort) ? request.query.sort : undefined,
        order: request.query.order ?? 'asc',
      };
      const result = await employeeRows(session.companyId, {
        q,
        status,
        sort: sort.key,
        order: sort.order,
        offset: pageOffset(pageNo, EMPLOYEES_PER_PAGE),
        limit: EMPLOYEES_PER_PAGE,
      });
      const lastPage = lastPageOf(result.total, EMPLOYEES_PER_PAGE);
      const rows = result.rows;
      const filtered = q !== '' || status !== undefined;
      const body = html`<p><a class="button" href="/console/employees/new">Add employee</a> <a class="button secondary" href="/console/employees/upload">Upload a CSV file</a></p>
<form method="get" action="/console/employees" class="card" role="search">
  <label for="q">Search employees <span class="hint">Name, company or personal e-mail, or employee number</span></label>
  <input id="q" name="q" type="search" value="${q}">
  <label for="status">Status</label>
  <select id="status" name="status">
    <option value="">Any status</option>
    ${USER_STATUSES.map((value) => html`<option value="${value}"${status === value ? html` selected` : ''}>${value[0].toUpperCase()}${value.slice(1)}</option>`)}
  </select>
  <button type="submit">Search</button>${filtered ? html` <a class="button secondary" href="/console/employees">Clear</a>` : ''}
</form>
${
  rows.length === 0
    ? html`<p>${
        filtered
          ? 'No employees match this search.'
          : result.total === 0
            ? 'No employees yet. Add one, upload a CSV file, or use the API (POST /api/users).'
            : 'No employees on this page.'
      }</p>`
    : employeesTable(rows, { filtered, total: result.total, sort, params: { q, status } })
}${pager('/console/employees', { q, status, sort: sort.key, order: sort.key ? sort.order : undefined }, pageNo, lastPage, result.total, 'employees')}`;
      return sendHtml(reply, page({ title: 'Employees', session, section: 'employees', body }));
    },
  );
}
