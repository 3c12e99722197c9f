// The employees list's table (docs/console.md, "Employees"): a row per employee with links to the
// statutory details and the edit page, status badges, and the Employee and Name headers as sort
// links (sort-header.view.ts).
import { isExited, type SearchSort } from '../modules/users/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { type ListSort as SortOf, sortHeader } from './sort-header.view.js';
import type { WebContext } from './web.routes.js';

export type ListSort = SortOf<SearchSort>;

type Badge = [cls: string, label: string];

function employeeBadge(
  user: { is_active: boolean; is_suspended?: boolean; onboarding_completed: number | boolean; exit_date?: string | null },
  today: string,
): Badge {
  // Exited wins over every other standing (docs/users.md, "Leavers").
  if (isExited(user.exit_date, today)) return ['off', 'Exited'];
  if (user.is_suspended) return ['bad', 'Suspended'];
  if (user.is_active) return ['ok', 'Active'];
  if (!user.onboarding_completed) return ['warn', 'Invited'];
  return ['off', 'Inactive'];
}

const badge = ([cls, label]: Badge) => html`<span class="badge ${cls}">${label}</span>`;

const sortBy = (label: string, key: SearchSort, sort: ListSort, params: Record<string, string | undefined>): Html =>
  sortHeader({ path: '/console/employees', label, key, sort, params });

/** A User as the users search serializes it. */
export type ListedUser = Awaited<ReturnType<WebContext['services']['users']['search']['search']>>['users'][number];

/** One employee's row of the table, as of `today` (the Lagos day: the status badges depend on it). */
export function employeeRow(u: ListedUser, today: string): Html {
  return html`<tr><td><a href="/console/employees/${u.id}/statutory" aria-label="Statutory details of ${u.first_name} ${u.last_name} (${u.employee_id})">${u.employee_id}</a></td><td><a href="/console/employees/${u.id}/edit" aria-label="Edit ${u.first_name} ${u.last_name}">${u.first_name} ${u.last_name}</a></td><td>${u.email}</td><td>${u.user_types ?? '—'}</td><td>${u.title ?? '—'}</td><td class="num">${naira(u.base_salary)}</td><td>${badge(employeeBadge(u, today))}${
    u.exit_date !== null && !isExited(u.exit_date, today) ? html` <span class="badge warn">Leaving ${u.exit_date}</span>` : ''
  }</td></tr>`;
}

/** The table of `rows` (employeeRow's, every one of the same Lagos day). */
export function employeesTable(
  rows: Html[],
  list: { filtered: boolean; total: number; sort: ListSort; params: Record<string, string | undefined> },
): Html {
  const { filtered, total, sort, params } = list;
  const caption = filtered
    ? `Employees matching the search (${total})`
    : sort.key === 'name'
      ? 'Employees, by name'
      : 'Employees, by employee number';
  return html`<div class="table-wrap"><table>
  <caption>${caption}</caption>
  <thead><tr>${sortBy('Employee', 'employee_id', sort, params)}${sortBy('Name', 'name', sort, params)}<th scope="col">Company e-mail</th><th scope="col">Type</th><th scope="col">Title</th><th scope="col" class="num">Base salary</th><th scope="col">Status</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}
