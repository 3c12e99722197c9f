// The one data set the read scenarios share: a company of 10,000 users, created once per bench run
// (the ceiling, the baseline and the real endpoint all serve the same first page of it).
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { companyDomains, users, userTypes } from '../../src/db/schema/index.js';
import type { BenchContext } from '../scenario.js';

/** 10,000; CI's smoke run (BENCH_SMOKE, bench/run.ts) seeds fewer, its figures mean nothing. */
export const FIXTURE_USERS = Number(process.env.BENCH_FIXTURE_USERS || 10_000);
/** The page every read scenario serves: what a client listing users asks for first. */
export const PAGE_PATH = '/api/users?per_page=20';

export interface UsersFixture {
  companyId: number;
  token: string;
  userIds: number[];
  /** The real server's body for PAGE_PATH, which the bare ceiling serves verbatim. */
  pageBody: string;
}

let fixture: Promise<UsersFixture> | undefined;

export function usersFixture(ctx: BenchContext): Promise<UsersFixture> {
  fixture ??= createFixture(ctx);
  return fixture;
}

async function createFixture(ctx: BenchContext): Promise<UsersFixture> {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  const userIds = await seedUsers(db, company.id);
  // What autovacuum gives a long-running database: statistics, and a visibility map so that the
  // count of a company's users can be an index-only scan.
  await ctx.database.execScript('VACUUM ANALYZE');

  const response = await fetch(`${ctx.baseUrl}${PAGE_PATH}`, { headers: { authorization: `Bearer ${company.token}` } });
  const pageBody = await response.text();
  if (response.status !== 200) throw new Error(`GET ${PAGE_PATH} answered ${response.status}: ${pageBody}`);
  return { companyId: company.id, token: company.token, userIds, pageBody };
}

/** FIXTURE_USERS users in `companyId` (on PostgreSQL or PGlite); their ids in order. */
export async function seedUsers(db: Db, companyId: number): Promise<number[]> {
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, companyId)).limit(1);
  const types = await db.select().from(userTypes).where(eq(userTypes.companyId, companyId));
  const userIds: number[] = [];
  await db.transaction(async (tx) => {
    // Batches of 1,000 rows: one statement each, well under PostgreSQL's 65,535 parameters.
    for (let start = 0; start < FIXTURE_USERS; start += 1000) {
      const values = Array.from({ length: Math.min(1000, FIXTURE_USERS - start) }, (_, offset) => {
        const n = start + offset + 1;
        return {
          companyId: companyId,
          employeeId: `BENCH-${String(n).padStart(5, '0')}`,
          firstName: `First${n}`,
          lastName: `Last${n}`,
          email: `first${n}.last${n}@${domain.name}`,
          personalEmail: `first${n}.last${n}.${companyId}@personal.test`,
          uniqueId: crypto.randomBytes(12).toString('base64url'),
          userTypeId: types[n % types.length].id,
          domainId: domain.id,
          // Users after the first ten report to one of them, so the manager join has work to do.
          managerId: n > 10 && userIds.length >= 10 ? userIds[n % 10] : null,
          isActive: true,
          onboardingCompleted: true,
          title: 'Engineer',
          department: 'Operations',
          baseSalary: `${250_000 + (n % 50) * 1000}.00`,
          allowances: '25000.00',
          paymentFrequency: 'monthly',
          startDate: '2024-01-15',
          bankName: 'Bench Bank',
          accountNumber: String(1_000_000_000 + n),
          roles: ['user'],
        };
      });
      const rows = await tx.insert(users).values(values).returning({ id: users.id });
      userIds.push(...rows.map((row) => row.id));
    }
    await tx.execute(sql`UPDATE companies SET employee_seq = ${FIXTURE_USERS} WHERE id = ${companyId}`);
  });
  return userIds;
}
