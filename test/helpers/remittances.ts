// A company paid in March 2026 for the remittance tests (API, console, browser): staff across Lagos,
// the FCT and Kano and two PFAs, some with missing statutory data, one named like a formula; a run
// paid on 2026-03-27, a draft run (not counted) and a run paid in April (another month).
import { sql } from 'drizzle-orm';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { createCompany, createUsers, type TestCompany } from './factories.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from './payroll-runs.js';

export const VOLUNTARY_PENSION = 'Additional voluntary pension';
export const EVIL_NAME = '=HYPERLINK("http://evil.example","x")';

interface Person {
  first: string;
  last: string;
  salary: string;
  state: string | null;
  pfa: string | null;
  rsa: string | null;
  nhf: string | null;
}

const PEOPLE: Person[] = [
  { first: 'Ada', last: 'Obi', salary: '450000.00', state: 'LA', pfa: 'STANBICIBTC', rsa: 'PEN100000000001', nhf: 'NHF-001' },
  { first: 'Bola', last: 'Ade', salary: '375000.50', state: 'LA', pfa: 'LEADWAY', rsa: 'PEN100000000002', nhf: 'NHF-002' },
  { first: EVIL_NAME, last: '@Sum', salary: '123456.78', state: 'LA', pfa: 'STANBICIBTC', rsa: 'PEN100000000003', nhf: null },
  { first: 'Chidi', last: 'Eze', salary: '820000.00', state: 'FC', pfa: 'LEADWAY', rsa: 'PEN100000000004', nhf: 'NHF-004' },
  { first: 'Dayo', last: 'Bello', salary: '99999.99', state: 'FC', pfa: 'STANBICIBTC', rsa: null, nhf: 'NHF-005' },
  { first: 'Efe', last: 'Okon', salary: '610000.00', state: 'KN', pfa: null, rsa: null, nhf: 'NHF-006' },
  { first: 'Funke', last: 'Ola', salary: '530000.00', state: null, pfa: 'LEADWAY', rsa: 'PEN100000000007', nhf: 'NHF-007' },
];

export interface RemittanceWorld {
  company: TestCompany;
  staff: Awaited<ReturnType<typeof createUsers>>;
  marchRun: string;
}

async function call(app: App, company: TestCompany, url: string, payload: object) {
  const res = await app.inject({ method: 'POST', url, headers: company.auth, payload });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function buildRemittanceWorld(app: App, db: Executor): Promise<RemittanceWorld> {
  const company = await createCompany(db, { name: 'Remit & Co', runApproval: 'token' }); // the token approves
  await db.execute(
    sql`UPDATE companies SET tax_ids = '{"LA": "LIRS-55501", "FC": "FCT-77"}'::jsonb, pencom_employer_code = 'PR0000123456',
        nhf_employer_number = 'NHF-EMP-9', nsitf_number = 'NSITF-42', itf_number = 'ITF-7' WHERE id = ${company.id}`,
  );
  const [boss] = await createUsers(db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    db,
    company.id,
    PEOPLE.map((p) => ({ firstName: p.first, lastName: p.last, baseSalary: p.salary })),
  );
  for (const [index, p] of PEOPLE.entries()) {
    await db.execute(
      sql`UPDATE users SET state_of_residence = ${p.state}, pfa_code = ${p.pfa}, rsa_pin = ${p.rsa}, nhf_number = ${p.nhf},
          nhf_opt_in = ${p.nhf !== null || index === 2}, nin = ${`1234567890${index}`}, tax_id = ${`TIN-${index}`} WHERE id = ${staff[index].id}`,
    );
  }
  await setBankAccounts(
    db,
    staff.map((u) => u.id),
  );
  await fundWallet(app, db, company, 20_000_000);
  // Voluntary pension (tax-deductible, both parts) for Ada (Stanbic IBTC) and Chidi (Leadway), and
  // union dues for Ada that are not pension: only the first is the schedule's voluntary column.
  const customs = `/api/custom-contributions/${company.id}`;
  const perPaystub = { type: 'percentage', apply_to: 'gross_pay', frequency: 'per_paystub' };
  await call(app, company, customs, {
    ...perPaystub,
    name: VOLUNTARY_PENSION,
    responsibility: 'both',
    employee_value: 5,
    employer_value: 2,
    tax_deductible: true,
    users: [staff[0].email, staff[3].email],
  });
  await call(app, company, customs, {
    ...perPaystub,
    name: 'Union dues',
    responsibility: 'employee',
    employee_value: 1,
    users: [staff[0].email],
  });
  const pay = async (body: Record<string, unknown>, paid: boolean) => {
    const { run } = await call(app, company, '/api/payroll-runs', runBody(body));
    if (!paid) return run.id as string;
    await call(app, company, `/api/payroll-runs/${run.id}/approve`, { approver_email: boss.email });
    await call(app, company, `/api/payroll-runs/${run.id}/pay`, {});
    await drainJobs(app);
    return run.id as string;
  };
  const marchRun = await pay({ payment_date: '2026-03-27' }, true);
  // A draft run paid in March on paper: not remitted (never paid).
  await pay({ pay_period_start: '2026-02-01', pay_period_end: '2026-02-28', payment_date: '2026-03-02' }, false);
  // April's run belongs to April's schedules.
  await pay({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }, true);
  return { company, staff, marchRun };
}
