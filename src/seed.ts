// On an empty database (SEED_DEMO), a demo company that shows the product: a console
// administrator, employees with managers and bank details, a wallet funded through the sandbox,
// last month's payroll run created from the salaries, approved by a second admin, paid and
// settled (paid paystubs, payment e-mails queued), and invoices awaiting approval. Everything goes
// through the services the API uses, with the same validation; the administrator's password and
// the API token are printed once.
import crypto from 'node:crypto';
import type { AppServices } from './modules/index.js';
import { createPayrollRunsModule } from './modules/payroll-runs/index.js';
import type { AppDeps } from './platform/deps.js';
import { DEMO_BANKS, DEMO_PEOPLE, type DemoPerson, demoStatutory, nubanAccount } from './seed-data.js';
import { PERIODS_PER_YEAR } from './tax-engine/engine.types.js';
import { divRound, koboToString, parseKobo } from './tax-engine/money.js';

export const DEMO_DOMAIN = 'demo.test';

export interface DemoSeed {
  companyId: number;
  adminEmail: string;
  adminPassword: string;
  token: string;
  /** Last month's payroll run (paid). */
  transactionId: string;
  /** The second administrator, who approves the runs the first creates (and signs in with this). */
  approverEmail: string;
  approverPassword: string;
  /** What `npm start` prints: where to go and how to get in. */
  banner: string;
}

/** 3 groups of 4 from 32 unambiguous upper-case letters and digits (60 bits); `-` is the symbol U4 asks for. */
export function demoPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const groups = [0, 1, 2].map(() => [...crypto.randomBytes(4)].map((byte) => alphabet[byte % alphabet.length]).join(''));
  return `Demo-${groups.join('-')}`;
}

/** Naira per month → naira per period (exact decimal text) of the employee's frequency, rounded half-up. */
const perPeriod = (naira: number, periodsPerYear: number) => koboToString(divRound(BigInt(naira) * 100n * 12n, BigInt(periodsPerYear)));

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
    // Records hold pay per period of the employee's frequency (docs/payroll-runs.md), as runs read
    // them.
    base_salary: perPeriod(person.salary, PERIODS_PER_YEAR[person.frequency] ?? 12),
    allowances: perPeriod(person.allowances, PERIODS_PER_YEAR[person.frequency] ?? 12),
    start_date: person.start,
    manager_email: managerEmail,
    bank_name: bank.name,
    account_number: nubanAccount(bank.code, index),
    roles: person.roles ?? ['user'],
    is_active: !person.invited,
    payment_frequency: person.frequency,
    // State, PFA, RSA PIN and NHF number, so last month's schedules list everyone (no missing data).
    ...demoStatutory(person, index),
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

/** `app`: the built app's deps and services (app.ts), so the seed goes through the API's own services. */
export async function seedDemo(app: { deps: AppDeps; services: AppServices }): Promise<DemoSeed | undefined> {
  const { deps, services } = app;
  if (!(await services.companies.companies.noneYet())) return undefined;

  const created = await services.admin.admin.createCompany({
    name: 'Demo Company Ltd',
    domain: DEMO_DOMAIN,
    plan: 'premium',
    payment_frequency: 'monthly',
    redirect_domains: ['localhost', '127.0.0.1'],
  });
  const companyId = created.company.id as number;
  // The employer's registrations and its PAYE payer IDs in the demo's three states (fictitious
  // numbers of the right shape), so the Compliance page shows complete schedules.
  await services.admin.admin.updateCompany(companyId, {
    rc_number: 'RC1234567',
    pencom_employer_code: 'PR0000123456',
    nhf_employer_number: 'NHF-EMP-004521',
    nsitf_number: 'NSITF-LA-78812',
    tax_ids: { LA: 'LIRS-2310456', FC: 'FCT-IRS-889012', RI: 'RIRS-554120' },
  });

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
  // The second administrator signs in too: runs are approved by a person other than their creator
  // (docs/payroll-runs.md, "Approval"), so a newcomer needs both sign-ins to take a run through.
  const approverIndex = DEMO_PEOPLE.findIndex((person) => person.roles?.includes('admin'));
  const approverPassword = demoPassword();
  await users.update(
    companyId,
    ids[approverIndex],
    { password: approverPassword, password_confirmation: approverPassword },
    [],
    OPERATOR_GRANTS,
  );

  const transactionId = await payLastMonth(app, companyId, { ids, emails, creator: emails[0], approver: ids[approverIndex] });

  const { invoices } = services.invoices;
  const { start } = lastMonth();
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
    `a wallet funded through the sandbox, last month's payroll run ${transactionId} (approved and paid)`,
    'and two invoices awaiting approval.',
    '',
    `  Console:  ${base}/console`,
    `    super admin:  ${emails[0]}`,
    `      password (shown once): ${adminPassword}`,
    `    second admin (approves the runs the super admin creates): ${emails[approverIndex]}`,
    `      password (shown once): ${approverPassword}`,
    `  API token (shown once): ${created.token}`,
    '',
    'Next steps:',
    `  curl -H "Authorization: Bearer ${created.token}" ${base}/api/users`,
    `  API reference:  ${base}/docs`,
    `  OpenAPI:        ${base}/openapi.json`,
    '  Operator API:   set ADMIN_TOKEN and see `npx payroll --help`',
    '',
  ].join('\n');
  return {
    companyId,
    adminEmail: emails[0],
    adminPassword,
    approverEmail: emails[approverIndex],
    approverPassword,
    token: created.token,
    transactionId,
    banner,
  };
}

/**
 * Last month's payroll, as an employer would run it: one run for the calendar month, created from
 * the salaries of every active employee (a reimbursement for Sales and Operations), approved by a
 * second admin as in the console, the wallet topped up through the sandbox with what it needs and a
 * reserve, then paid and settled. A run from salaries pays each employee one period of their own
 * frequency (docs/payroll-runs.md), so the weekly and bi-weekly employees get a week's or a
 * fortnight's pay. The transfers go through a sandbox without settlement delay and are settled
 * here, so the seed stays quick (the configured sandbox settles 2 s later by default).
 */
async function payLastMonth(
  app: { deps: AppDeps; services: AppServices },
  companyId: number,
  people: { ids: number[]; emails: string[]; creator: string; approver: number },
): Promise<string> {
  const { deps, services } = app;
  const { runs } = services.payrollRuns;
  const instant = createPayrollRunsModule({ ...deps, config: { ...deps.config, sandboxTransferDelaySeconds: 0 } }).services;
  const { start, end } = lastMonth();
  const { run } = await runs.create(companyId, {
    pay_period_start: isoDate(start),
    pay_period_end: isoDate(end),
    payment_date: isoDate(end),
    items: DEMO_PEOPLE.flatMap((person, index) =>
      !person.invited && ['Sales', 'Operations'].includes(person.department)
        ? [{ user_id: people.ids[index], reimbursements: perPeriod(25_000, PERIODS_PER_YEAR[person.frequency] ?? 12) }]
        : [],
    ),
    created_by_email: people.creator,
  });
  if (run.skipped.length > 0) throw new Error(`demo payroll run skipped employees: ${JSON.stringify(run.skipped)}`);
  // The demo company approves runs in the console (run_approval: person): the second admin approves
  // as a console approval would record it.
  await runs.approveAsPerson(companyId, run.id, { userId: people.approver });

  // What the run needs, rounded up to the next million naira, and ₦5m more left in the wallet.
  const needed = parseKobo(run.totals.net_pay.toFixed(2)) ?? 0n;
  const million = 100_000_000n;
  await services.wallet.wallet.creditSandboxTopUp(companyId, {
    amount: koboToString(((needed + million - 1n) / million) * million + 5n * million),
    customerEmail: people.emails[1],
    redirectUrl: `${deps.config.publicUrl}/console/wallet`,
  });
  await instant.funding.pay(companyId, run.id);
  if (!(await instant.settleNow(companyId, run.id))) throw new Error(`demo payroll run ${run.id} did not settle`);
  return run.id;
}
