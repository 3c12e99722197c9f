// Test data written straight through the schema, in batches.
import crypto from 'node:crypto';
import { asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../src/db/client.js';
import { pgArray } from '../../src/db/pg-array.js';
import { companies, companyDomains, users, userTypes } from '../../src/db/schema/index.js';
import { type NewCompany, setupCompany } from '../../src/modules/companies/index.js';
import { issueToken } from '../../src/platform/auth/tokens.js';

let companySeq = 0;

export interface TestCompany {
  id: number;
  code: string;
  domain: string;
  token: string;
  auth: { authorization: string };
}

/** A company with default vocabularies, settings and an API token (scopes default `all`). */
export async function createCompany(db: Executor, input: Partial<NewCompany> & { scopes?: string[] } = {}): Promise<TestCompany> {
  companySeq += 1;
  const tag = `${process.pid}x${companySeq}${crypto.randomBytes(2).toString('hex')}`;
  const company = await setupCompany(db, { name: `Company ${tag}`, domain: `c${tag}.test`, ...input });
  const { token } = await issueToken(db, company.id, input.scopes ?? ['all']);
  return { id: company.id, code: company.code, domain: company.domain, token, auth: { authorization: `Bearer ${token}` } };
}

/**
 * A company row as an older migration left the table (tests of a migration's backfill, on a database
 * built with `migrateThrough`): only the columns every migration has had, in raw SQL, so a column
 * added later to `companies` cannot break them. `withToken` gives it a token once migrated.
 */
export async function createCompanyAsOfOldMigration(db: Executor, name: string): Promise<{ id: number; code: string; domain: string }> {
  companySeq += 1;
  const tag = `${process.pid}x${companySeq}${crypto.randomBytes(2).toString('hex')}`;
  const [row] = await queryRows<{ id: number; code: string; domain: string }>(
    db,
    sql`INSERT INTO companies (name, code, domain) VALUES (${name}, ${`OLD${tag}`.toUpperCase()}, ${`c${tag}.test`}) RETURNING id, code, domain`,
  );
  // What createUsers reads: a domain and the user types.
  await db.execute(sql`INSERT INTO company_domains (company_id, name) VALUES (${row.id}, ${row.domain})`);
  await db.execute(
    sql`INSERT INTO user_types (company_id, name) SELECT ${row.id}, unnest(ARRAY['Full-time', 'Part-time', 'Contract', 'Intern'])`,
  );
  return row;
}

/** A company of `createCompanyAsOfOldMigration` with an API token (scopes default `all`). */
export async function withToken(
  db: Executor,
  company: { id: number; code: string; domain: string },
  scopes = ['all'],
): Promise<TestCompany> {
  const { token } = await issueToken(db, company.id, scopes);
  return { ...company, token, auth: { authorization: `Bearer ${token}` } };
}

export interface TestUserInput {
  firstName?: string;
  lastName?: string;
  personalEmail?: string;
  isActive?: boolean;
  baseSalary?: string;
  userType?: string;
  roles?: string[];
  managerId?: number;
  paymentFrequency?: string;
}

/**
 * The columns of `users` the factory reads back: every column but those added after the oldest
 * database a test builds with `migrateThrough` (0139, users.counts.test.ts), so that a column added
 * later to `users` cannot break those tests: 0202_leavers.sql added the exit, 0203 the pension exemption.
 */
const {
  exitDate: _exitDate,
  exitReason: _exitReason,
  pensionExempt: _pensionExempt,
  pensionExemptReason: _pensionExemptReason,
  ...FACTORY_USER_COLUMNS
} = getTableColumns(users);

/** Inserts users in one statement; returns their rows in order. */
export async function createUsers(db: Executor, companyId: number, inputs: TestUserInput[]) {
  // Only the columns every migration has had: tests of a migration's backfill call this on older databases.
  const [company] = await db.select({ code: companies.code }).from(companies).where(eq(companies.id, companyId));
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, companyId)).limit(1);
  const types = await db.select().from(userTypes).where(eq(userTypes.companyId, companyId));
  const [{ start }] = await queryRows<{ start: number }>(
    db,
    sql`UPDATE companies SET employee_seq = employee_seq + ${inputs.length} WHERE id = ${companyId} RETURNING employee_seq - ${inputs.length} AS start`,
  );
  const values = inputs.map((input, index) => {
    const n = start + index + 1;
    const first = input.firstName ?? `First${n}`;
    const last = input.lastName ?? `Last${n}`;
    const type = types.find((t) => t.name === (input.userType ?? 'Full-time')) ?? types[0];
    return {
      companyId,
      employeeId: `${company.code}-${String(n).padStart(4, '0')}`,
      firstName: first,
      lastName: last,
      email: `${first}.${last}.${n}@${domain.name}`.toLowerCase(),
      personalEmail: input.personalEmail ?? `${first}.${last}.${n}.${companyId}@personal.test`.toLowerCase(),
      uniqueId: crypto.randomBytes(12).toString('base64url'),
      userTypeId: type.id,
      domainId: domain.id,
      isActive: input.isActive ?? true,
      onboardingCompleted: input.isActive ?? true,
      baseSalary: input.baseSalary ?? '250000.00',
      roles: input.roles ?? ['user'],
      managerId: input.managerId ?? null,
      paymentFrequency: input.paymentFrequency ?? null,
      startDate: '2024-01-15',
    };
  });
  // Raw SQL naming only these columns (Drizzle's insert names every column of the schema).
  const inserted = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id, domain_id,
          is_active, onboarding_completed, base_salary, roles, manager_id, payment_frequency, start_date)
        VALUES ${sql.join(
          values.map(
            (v) =>
              sql`(${v.companyId}, ${v.employeeId}, ${v.firstName}, ${v.lastName}, ${v.email}, ${v.personalEmail}, ${v.uniqueId},
                ${v.userTypeId}, ${v.domainId}, ${v.isActive}, ${v.onboardingCompleted}, ${v.baseSalary}::numeric,
                ${pgArray(v.roles)}::text[], ${v.managerId}::int, ${v.paymentFrequency}::text, ${v.startDate}::date)`,
          ),
          sql`, `,
        )}
        RETURNING id`,
  );
  const ids = inserted.map((row) => row.id);
  return db.select(FACTORY_USER_COLUMNS).from(users).where(inArray(users.id, ids)).orderBy(asc(users.id));
}

/** `count` users of the factory's defaults (tests of how reads behave at a size). */
export function createStaff(db: Executor, companyId: number, count: number) {
  return createUsers(
    db,
    companyId,
    Array.from({ length: count }, () => ({})),
  );
}
