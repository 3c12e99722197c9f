// Users (U1-U13): B's users by id and e-mail, company_id=B in query, JSON body and form field, CSV rows naming B.
import { expect } from 'vitest';
import { generatedUsers, multipart, usersCsv } from '../../helpers/users.js';
import { csvUpload, EVERY_ROW_FAILED, type MatrixContext } from '../probes.js';

/** Opening year-to-date figures (docs/payroll.md, "Opening year-to-date"), valid for any user. */
const OPENING = { gross_pay: 1000, taxable_pay: 1000, tax_withheld: 0, employee_pension: 0, nhf: 0, nhis: 0, months: 1 };

/** POST /api/year-to-date/import's file: one row per e-mail. */
function ytdUpload(email: string, fields: Record<string, string> = {}, ...more: string[]) {
  const rows = [email, ...more].map((address) => `${address},2026,1000,1000,0,0,0,0,1`);
  const csv = ['email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months', ...rows].join('\n');
  const { payload, headers } = multipart(fields, [{ field: 'year_to_date_csv', filename: 'ytd.csv', contentType: 'text/csv', data: csv }]);
  return { payload, headers };
}

export function usersProbes(context: MatrixContext): void {
  const { a, v, A, add, scopes, userScopes, row } = context;
  // ---------- users ----------
  for (const [label, id] of scopes) {
    add({ route: 'users.index', what: label, method: 'GET', url: `/api/users?company_id=${id}` });
    add({ route: 'users.import-template', what: label, method: 'GET', url: `/api/users/import-template?company_id=${id}` });
    add({ route: 'users.update-template', what: label, method: 'GET', url: `/api/users/update-template?company_id=${id}` });
    add({
      route: 'users.store',
      what: `${label} in the body`,
      method: 'POST',
      url: '/api/users',
      payload: {
        company_id: id,
        first_name: 'Mallory',
        last_name: 'Intruder',
        personal_email: 'mallory.intruder@evil.test',
        domain_name: v.domain,
        user_types: 'Full-time',
        start_date: '2024-01-01',
      },
    });
    add({
      route: 'users.bulk-create',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/users/bulk-create?company_id=${id}`,
      ...csvUpload(usersCsv(generatedUsers(1, v.domain))),
    });
    add({
      route: 'users.bulk-update',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/users/bulk-update?company_id=${id}`,
      ...csvUpload(usersCsv([{ email: v.userEmail, title: 'Hijacked' }], { update: true })),
    });
  }
  add({
    route: 'users.index',
    what: "plain list lists none of B's users",
    method: 'GET',
    url: '/api/users?per_page=1000',
    allow: [200],
    check: (body) => expect(body.Resources.every((user: { company_id: number }) => user.company_id === A)).toBe(true),
  });
  add({
    route: 'users.bulk-create',
    what: 'company_id=B as a form field',
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv(generatedUsers(1, v.domain)), { company_id: String(v.company) }),
  });
  add({
    route: 'users.bulk-update',
    what: 'company_id=B as a form field',
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(usersCsv([{ email: v.userEmail, title: 'Hijacked' }], { update: true }), { company_id: String(v.company) }),
  });
  add({
    route: 'users.bulk-create',
    what: "a row on B's e-mail domain",
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv([{ ...row, domain: v.domain }])),
    allow: [200],
    check: EVERY_ROW_FAILED('domain'),
  });
  add({
    route: 'users.bulk-create',
    what: "a row whose manager is B's user",
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv([{ ...row, manager: v.userEmail }])),
    allow: [200],
    check: EVERY_ROW_FAILED('manager'),
  });
  add({
    route: 'users.bulk-update',
    what: "rows naming B's user by company and personal e-mail",
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(
      usersCsv(
        [
          { email: v.userEmail, title: 'Hijacked' },
          { email: v.personalEmail, title: 'Hijacked' },
        ],
        { update: true },
      ),
    ),
    allow: [200],
    check: EVERY_ROW_FAILED('email'),
  });
  add({
    route: 'users.bulk-update',
    what: "A's own user given B's user as manager",
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(usersCsv([{ email: a.userEmail, manager: v.userEmail }], { update: true })),
    allow: [200],
    check: EVERY_ROW_FAILED('manager'),
  });
  add({
    route: 'users.store',
    what: "B's e-mail domain",
    method: 'POST',
    url: '/api/users',
    payload: {
      first_name: 'Mallory',
      last_name: 'Intruder',
      personal_email: 'mallory.intruder@evil.test',
      domain_name: v.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
    },
    allow: [400],
  });
  add({
    route: 'users.store',
    what: "B's user as manager",
    method: 'POST',
    url: '/api/users',
    payload: {
      first_name: 'Mallory',
      last_name: 'Intruder',
      personal_email: 'mallory.intruder@evil.test',
      domain_name: a.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      manager_email: v.userEmail,
    },
    allow: [400],
  });
  for (const [label, q] of userScopes) {
    const u = `/api/users/${v.userId}`;
    add({ route: 'users.show', what: `B's user, ${label}`, method: 'GET', url: `${u}${q}` });
    add({ route: 'users.update', what: `B's user, ${label}`, method: 'PUT', url: `${u}${q}`, payload: { title: 'Hijacked' } });
    add({ route: 'users.deactivate', what: `B's user, ${label}`, method: 'PATCH', url: `${u}/deactivate${q}` });
    add({ route: 'users.activate', what: `B's user, ${label}`, method: 'PATCH', url: `${u}/activate${q}`, payload: { notify: true } });
    add({ route: 'users.destroy', what: `B's user, ${label}`, method: 'DELETE', url: `${u}${q}` });
    add({
      route: 'users.suspend',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `${u}/suspend${q}`,
      payload: { suspension_duration_type: 'indefinite', clear_roles: true },
    });
    add({
      route: 'users.unsuspend',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `${u}/unsuspend${q}`,
      payload: { unsuspend_option: 'immediately' },
    });
    add({
      route: 'users.terminate',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `${u}/terminate${q}`,
      payload: { exit_date: '2026-03-31', reason: 'resignation' },
    });
    add({ route: 'users.reinstate', what: `B's user, ${label}`, method: 'POST', url: `${u}/reinstate${q}`, payload: {} });
    add({ route: 'users.year-to-date.show', what: `B's user, ${label}`, method: 'GET', url: `${u}/year-to-date/2026${q}` });
    add({
      route: 'users.year-to-date.update',
      what: `B's user, ${label}`,
      method: 'PUT',
      url: `${u}/year-to-date/2026${q}`,
      payload: OPENING,
    });
  }
  add({
    route: 'users.year-to-date.update',
    what: "B's user, company_id=B in the JSON body",
    method: 'PUT',
    url: `/api/users/${v.userId}/year-to-date/2026`,
    payload: { ...OPENING, company_id: v.company },
  });
  add({
    route: 'users.year-to-date.update',
    what: "B's user, an invalid body and year (refused as missing, not validated)",
    method: 'PUT',
    url: `/api/users/${v.userId}/year-to-date/1999`,
    payload: { gross_pay: -1 },
    allow: [404, 422],
  });
  for (const [label, id] of scopes) {
    add({
      route: 'users.year-to-date.import',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/year-to-date/import?company_id=${id}`,
      ...ytdUpload(v.userEmail),
    });
  }
  add({
    route: 'users.year-to-date.import',
    what: 'company_id=B as a form field',
    method: 'POST',
    url: '/api/year-to-date/import',
    ...ytdUpload(v.userEmail, { company_id: String(v.company) }),
  });
  add({
    route: 'users.year-to-date.import',
    what: "rows naming B's user by company and personal e-mail",
    method: 'POST',
    url: '/api/year-to-date/import',
    ...ytdUpload(v.userEmail, {}, v.personalEmail),
    allow: [200],
    check: EVERY_ROW_FAILED('email'),
  });
  add({
    route: 'users.terminate',
    what: "B's user, company_id=B in the JSON body",
    method: 'POST',
    url: `/api/users/${v.userId}/terminate`,
    payload: { company_id: v.company, exit_date: '2026-03-31', reason: 'dismissal' },
  });
  add({
    route: 'users.terminate',
    what: "B's user, an invalid body (refused as missing, not validated)",
    method: 'POST',
    url: `/api/users/${v.userId}/terminate`,
    payload: { exit_date: 'not a date', reason: 'fired' },
    allow: [404, 422],
  });
  add({
    route: 'users.reinstate',
    what: "B's user, company_id=B in the JSON body",
    method: 'POST',
    url: `/api/users/${v.userId}/reinstate`,
    payload: { company_id: v.company },
  });
  add({
    route: 'users.update',
    what: "B's user, company_id=B in the JSON body",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    payload: { company_id: v.company, title: 'Hijacked' },
  });
  add({
    route: 'users.update',
    what: "B's user, multipart with company_id=B as a form field",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    ...multipart({ company_id: String(v.company), title: 'Hijacked' }),
  });
  add({
    route: 'users.update',
    what: "B's user, multipart in A's own scope",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    ...multipart({ title: 'Hijacked' }),
  });
  // Hostile input naming B: refused like any other request naming B, never a 500 (a malformed
  // multipart body was one; docs/security.md, "Input: NUL characters and out-of-range numbers").
  add({
    route: 'users.update',
    what: "B's user, a malformed multipart body",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    payload: `{"company_id":${v.company},"title":"Hijacked"}`,
    headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    allow: [400],
  });
  for (const field of ['page', 'per_page', 'startIndex', 'count']) {
    add({
      route: 'users.index',
      what: `company_id=B with ${field}=Infinity`,
      method: 'GET',
      url: `/api/users?company_id=${v.company}&${field}=Infinity`,
      allow: [403, 422],
    });
  }
  add({
    route: 'users.update',
    what: "A's own user given B's user as manager",
    method: 'PUT',
    url: `/api/users/${a.userId}`,
    payload: { manager_email: v.userEmail },
    allow: [400, 404, 422],
  });
  add({
    route: 'users.update',
    what: "A's own user moved to B's e-mail domain",
    method: 'PUT',
    url: `/api/users/${a.userId}`,
    payload: { domain_name: v.domain },
    allow: [400, 404, 422],
  });
}
