// The shared set-up of HTTP tests as vitest fixtures (docs/architecture.md, "Tests"): a file asks for
// what it needs by name and gets it built once for the file, torn down after its last test.
//
//   import { test } from '../../../test/helpers/fixtures.js';   (or `test as shared`, then extend it)
//   const test = shared.extend('appConfig', { scope: 'file' }, { sandboxTransferDelaySeconds: 0 }); // optional
//   test('lists users', async ({ ctx, company, api }) => { ... });
//   test.beforeAll(async ({ ctx, company }) => { ...seed the file's data... });
//
// - `appConfig`: the overrides `ctx` is built with (file scope; default none).
// A file changes a fixture by extending the shared `test` into a file-local one, never with
// test.override: files share their worker's modules (vitest.config.ts), so an override would
// reach the files that run after it in the same worker.
// - `ctx`: the real app on a database of its own (createTestApp), closed after the file.
// - `company`: a company with an `all`-scoped token, `runApproval: 'token'` so tokens may approve.
// - `api`: requests as that company (`api.get(url)`, `api.post(url, body)`).
// - `fundedCompany`: the same company with ₦50,000,000 in its wallet, through the real sandbox top-up.
// - `admin`: an administrator of that company with the console password ADMIN_PASSWORD (helpers/web.ts).
import { test as base } from 'vitest';
import { type ConfigOverrides, createTestApp } from './app.js';
import { createCompany } from './factories.js';
import { as } from './http.js';
import { fundWallet } from './payroll-runs.js';
import { createAdmin } from './web.js';

/** What `fundedCompany` tops up: enough for every run of a test file. */
export const FIXTURE_WALLET_NAIRA = 50_000_000;

export const test = base
  .extend('appConfig', { scope: 'file' }, {} as ConfigOverrides)
  .extend('ctx', { scope: 'file' }, async ({ appConfig }, { onCleanup }) => {
    const ctx = await createTestApp(appConfig);
    onCleanup(() => ctx.close());
    return ctx;
  })
  .extend('company', { scope: 'file' }, async ({ ctx }) => createCompany(ctx.db, { name: 'Fixture Ltd', runApproval: 'token' }))
  .extend('api', { scope: 'file' }, async ({ ctx, company }) => as(ctx.app, company))
  .extend('fundedCompany', { scope: 'file' }, async ({ ctx, company }) => {
    await fundWallet(ctx.app, ctx.db, company, FIXTURE_WALLET_NAIRA);
    return company;
  })
  .extend('admin', { scope: 'file' }, async ({ ctx, company }) =>
    createAdmin(ctx.db, company.id, { firstName: 'Fixture', lastName: 'Admin' }),
  );

export { describe, expect } from 'vitest';
