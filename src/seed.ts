// On an empty database (SEED_DEMO), a demo company that shows the product: a console
// administrator, employees with managers and bank details, last month's payroll run and invoices
// awaiting approval. Everything goes through the services the API uses, with the same validation;
// the administrator's password and the API token are printed once.
import crypto from 'node:crypto';
import { count } from 'drizzle-orm';
import { companies } from './db/schema/index.js';
import type { AppServices } from './modules/index.js';
import { PERIODS_PER_YEAR } from './payroll/engine.types.js';
import { divRound, koboToString } from './payroll/money.js';
import type { AppDeps } from './platform/deps.js';
import { DEMO_BANKS, DEMO_PEOPLE, type DemoPerson, nubanAccount } from './seed-data.js';

export const DEMO_DOMAIN = 'demo.test';

export interface DemoSeed {
  companyId: number;
  adminEmail: string;
  adminPassword: string;
  token: string;
  transactionId: string;
  /** What `npm start` prints: where to go and how to get in. */
  banner: string;
}

/** 3 groups of 4 from 32 unambiguous upper-case letters and digits (60 bits); `-` is the symbol U4 asks for. */
export function demoPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const groups = [0, 1, 2].map(() => [...crypto.randomBytes(4)].map((byte) => alphabet[byte % alphabet.length]).join(''));
  return `Demo-${groups.join('-')}`;
}

/** A U3 body for one demo person; the statutory fields travel as the API names them. */
function userBody(person: DemoPerson, index: number, managerEmail: string | undefined): Record<string, unknown> {
  const bank = DEMO_BANKS[index % DEMO_BANKS.length];
  return {
    first_name: person.first,
    last_name: person.last,
    personal_email: `${person.first}.${person.last}@example.com`.toLowerCase(),
    domain_name: DEMO_DOMAIN,
    user_types: person.userType,
    title: person.title,
    department: person.department,
    office_location: person.office,
    base_salary: String(person.salary),
    allowances: String(person.allowances),
    start_date: person.start,
    manager_email: managerEmail,
    bank_name: bank.name,
    account_number: nubanAccount(bank.code, index),
    roles: person.roles ?? ['user'],
    is_active: !person.invited,
    payment_frequency: person.frequency,
    ...(person.annualRent ? { annual_rent_paid: String(person.annualRent) } : {}),
    ...(person.lifeAssurance ? { life_assurance_premium: String(person.lifeAssurance) } : {}),
  };
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The calendar month before `now` (UTC): its first and last day. */
export function lastMonth(now = new Date()): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)),
  };
}

/** Naira per month → kobo per period of the employee's frequency, rounded half-up. */
const perPeriod = (naira: number, periodsPerYear: number) => koboToString(divRound(BigInt(naira) * 100n * 12n, BigInt(periodsPerYear)));

/** `app`: the built app's deps and services (app.ts), so the seed goes through the API's own services. */
export async function seedDemo(app: { deps: AppDeps; services: AppServices }): Promise<DemoSeed | undefined> {
  const { deps, services } = app;
  const [{ value }] = await deps.db.select({ value: count() }).from(companies);
  if (value > 0) return undefined;

  const created = await services.admin.admin.createCompany({
    name: 'Demo Company Ltd',
    domain: DEMO_DOMAIN,
    plan: 'premium',
    payment_frequency: 'monthly',
    redirect_domains: ['localhost', '127.0.0.1'],
  });
  const companyId = created.company.id as number;

  // The seed acts as the operator who created the company (an `all` token's rights): it may make
  // the demo administrator and set its password (platform/auth/console-access.ts).
  const OPERATOR_GRANTS = true;
  // Managers come before their reports (U3 looks the manager up by company e-mail).
  const users = services.users.actions;
  const emails: string[] = [];
  const ids: number[] = [];
  for (const [index, person] of DEMO_PEOPLE.entries()) {
    const manager = person.manager === undefined ? undefined : emails[person.manager];
    const { user } = await users.create(companyId, userBody(person, index, manager), OPERATOR_GRANTS);
    emails.push(user.email);
    ids.push(user.id);
  }
  const adminPassword = demoPassword();
  await users.update(companyId, ids[0], { password: adminPassword, password_confirmation: adminPassword }, [], OPERATOR_GRANTS);

  // Last month's run for everyone active, each on the pay frequency their record carries.
  const { start, end } = lastMonth();
  const stored = (await services.users.users.list(companyId, { count: 1000 })).Resources;
  const items = stored
    .filter((user) => user.is_active)
    .map((user) => {
      const person = DEMO_PEOPLE[ids.indexOf(user.id)];
      const frequency = user.payment_frequency ?? 'monthly';
      const periods = PERIODS_PER_YEAR[frequency] ?? 12;
      const days = periods === 52 ? 7 : periods === 26 ? 14 : 0;
      const periodStart = days ? new Date(end.getTime() - (days - 1) * 86_400_000) : start;
      return {
        id: String(user.id),
        pay_period_start: isoDate(periodStart),
        pay_period_end: isoDate(end),
        taxable_income: perPeriod(person.salary, periods),
        other_allowances: perPeriod(person.allowances, periods),
        reimbursements: person.department === 'Sales' || person.department === 'Operations' ? perPeriod(25_000, periods) : '0',
      };
    });
  const run = await services.payroll.paystubs.createRun(companyId, items);
  if (run.failed_paystubs.length > 0) throw new Error(`demo payroll run refused items: ${JSON.stringify(run.failed_paystubs)}`);

  const { invoices } = services.invoices;
  const serviceDay = (day: number) => isoDate(new Date(start.getTime() + (day - 1) * 86_400_000));
  await invoices.create(companyId, {
    user_email: emails[8],
    description: 'Eye test and prescription glasses',
    service_date: serviceDay(10),
    provider_name: 'Clear Vision Opticians, Lekki',
    total_amount: 185_000,
    amount_requested: 150_000,
    category_name: 'Health',
    subcategory_name: 'Optical',
  });
  await invoices.create(companyId, {
    user_email: emails[15],
    description: 'Defensive driving course',
    service_date: serviceDay(18),
    provider_name: 'FRSC Driving Institute, Abuja',
    total_amount: 60_000,
    amount_requested: 60_000,
    category_name: 'Learning',
  });

  const base = deps.config.publicUrl;
  const banner = [
    '',
    `A demo company was created on this empty database (SEED_DEMO=false skips this): ${DEMO_PEOPLE.length} employees,`,
    `last month's payroll run ${run.transaction_id} and two invoices awaiting approval.`,
    '',
    `  Console:  ${base}/console`,
    `    e-mail:   ${emails[0]}`,
    `    password (shown once): ${adminPassword}`,
    `  API token (shown once): ${created.token}`,
    '',
    'Next steps:',
    `  curl -H "Authorization: Bearer ${created.token}" ${base}/api/users`,
    `  API reference:  ${base}/docs`,
    `  OpenAPI:        ${base}/openapi.json`,
    '  Operator API:   set ADMIN_TOKEN and see `npx payroll --help`',
    '',
  ].join('\n');
  return { companyId, adminEmail: emails[0], adminPassword, token: created.token, transactionId: run.transaction_id, banner };
}
