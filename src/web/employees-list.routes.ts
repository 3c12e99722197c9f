// The employees list: search, status filter, paging, status badges. Employees come from the users
// module's search service (users.search).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { isExited, USER_STATUSES } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { lagosDate } from '../platform/format.js';
import { isOneOf } from '../platform/guards.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export const EMPLOYEES_PER_PAGE = 25;

type Badge = [cls: string, label: string];

export function employeeBadge(
  user: { is_active: boolean; is_suspended?: boolean; onboarding_completed: number | boolean; exit_date?: string | null },
  today = lagosDate(),
): Badge {
  // Exited wins over every other standing (docs/users.md, "Leavers").
  if (isExited(user.exit_date, today)) return ['off', 'Exited'];
  if (user.is_suspended) return ['bad', 'Suspended'];
  if (user.is_active) return ['ok', 'Active'];
  if (!user.onboarding_completed) return ['warn', 'Invited'];
  return ['off', 'Inactive'];
}

const badge = ([cls, label]: Badge) => html`<span class="badge ${cls}">${label}</span>`;

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
  const { search: userSearch } = ctx.services.users;

  app.get(
    '/employees',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Type.Union([Type.Literal(''), ...USER_STATUSES.map((status) => Type.Literal(status))])),
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
      const result = await userSearch.search(session.companyId, {
        q,
        status,
        offset: (pageNo - 1) * EMPLOYEES_PER_PAGE,
        limit: EMPLOYEES_PER_PAGE,
      });
      const lastPage = Math.max(1, Math.ceil(result.total / EMPLOYEES_PER_PAGE));
      const rows = result.users;
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
    : html`<div class="table-wrap"><table>
  <caption>${filtered ? `Employees matching the search (${result.total})` : 'Employees, by employee number'}</caption>
  <thead><tr><th scope="col">Employee</th><th scope="col">Name</th><th scope="col">Company e-mail</th><th scope="col">Type</th><th scope="col">Title</th><th scope="col" class="num">Base salary</th><th scope="col">Status</th></tr></thead>
  <tbody>${rows.map(
    (u) =>
      html`<tr><td><a href="/console/employees/${u.id}/statutory" aria-label="Statutory details of ${u.first_name} ${u.last_name} (${u.employee_id})">${u.employee_id}</a></td><td><a href="/console/employees/${u.id}/edit" aria-label="Edit ${u.first_name} ${u.last_name}">${u.first_name} ${u.last_name}</a></td><td>${u.email}</td><td>${u.user_types ?? '—'}</td><td>${u.title ?? '—'}</td><td class="num">${naira(u.base_salary)}</td><td>${badge(employeeBadge(u))}${
        u.exit_date !== null && !isExited(u.exit_date, lagosDate()) ? html` <span class="badge warn">Leaving ${u.exit_date}</span>` : ''
      }</td></tr>`,
  )}</tbody>
</table></div>`
}${pager('/console/employees', { q, status }, pageNo, lastPage, result.total, 'employees')}`;
      return sendHtml(reply, page({ title: 'Employees', session, section: 'employees', body }));
    },
  );
}
