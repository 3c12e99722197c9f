// The `required` lists the reference adds where route code (not the schema) refuses a missing
// field (src/reference/operations/, `required`): each documented-required field, left out of the
// operation's own example body, is refused with a 4xx that says it is required.
import { createApprovers, createInvoiceViaApi, invoiceBody } from '../../test/helpers/companies-invoices.js';
import { describe, expect, test } from '../../test/helpers/fixtures.js';
import type { Method } from '../../test/helpers/http.js';
import { createUserViaApi } from '../../test/helpers/users.js';
import { OPERATIONS } from './operations/index.js';

/** Path parameters of the routes below: a real user and invoice of the company. */
const params: Record<string, string> = {};

test.beforeAll(async ({ ctx, company }) => {
  const user = await createUserViaApi(ctx.app, company);
  params.id = String(user.id);
  await createApprovers(ctx.db, company.id, [`tunde.adeyemi@${company.domain}`]);
  params.transaction_id = (await createInvoiceViaApi(ctx.app, company, invoiceBody(user.email))).transaction_id;
});

describe('documented-required fields', () => {
  test('every operation with a `required` list is one of the routes checked here', ({ ctx }) => {
    const routes = ctx.app.routeCatalog.filter((route) => OPERATIONS[route.name]?.required);
    expect(routes.map((route) => route.name).sort()).toEqual(
      [
        'companies.store',
        'invoices.approve',
        'invoices.finance-approve',
        'invoices.store',
        'users.store',
        'users.suspend',
        'users.terminate',
        'wallet.top-up',
      ].sort(),
    );
  });

  test('each documented-required field missing is refused with a 4xx saying it is required', async ({ ctx, api }) => {
    const problems: string[] = [];
    for (const route of ctx.app.routeCatalog) {
      const entry = OPERATIONS[route.name];
      if (!entry?.required) continue;
      const url = route.url.replace(/:([a-z_]+)/g, (_match, name: string) => params[name]);
      for (const field of entry.required) {
        const payload = { ...(entry.body as Record<string, unknown>) };
        delete payload[field];
        const res = await api.request(route.method as Method, url, payload);
        const label = field.replace(/_/g, ' ');
        if (res.statusCode < 400 || res.statusCode >= 500 || !res.body.includes(`The ${label} field is required`))
          problems.push(`${route.name} without ${field}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
