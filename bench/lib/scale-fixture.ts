// Large data sets for the growth scenario (bench/scenarios/growth.ts): one company's users written by
// PostgreSQL itself (INSERT ... SELECT generate_series), so that a million rows take seconds rather
// than the minutes the row-building seeder of users-fixture.ts would, and the bench's time goes to
// measuring. The users look like users-fixture.ts's (the same columns set), one in ten with a manager.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { companyDomains, userTypes } from '../../src/db/schema/index.js';

/** Adds `n` users to `companyId` in batches of `batch` (one statement and commit each); returns their count. */
export async function seedUsersSql(db: Db, companyId: number, n: number, batch = 100_000): Promise<number> {
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, companyId)).limit(1);
  const [type] = await db.select().from(userTypes).where(eq(userTypes.companyId, companyId)).limit(1);
  for (let start = 1; start <= n; start += batch) {
    const end = Math.min(n, start + batch - 1);
    await db.execute(sql`
      INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id,
        domain_id, is_active, onboarding_completed, title, department, base_salary, allowances, payment_frequency,
        start_date, bank_name, account_number, roles)
      SELECT ${companyId}, 'G-' || lpad(g::text, 7, '0'), 'First' || g, 'Last' || g,
        'first' || g || '.last' || g || '@' || ${domain.name}, 'first' || g || '.' || ${companyId} || '@personal.test',
        md5(${companyId}::text || '-' || g::text), ${type?.id ?? null}::int, ${domain.id}, true, true, 'Engineer', 'Operations',
        (250000 + (g % 50) * 1000)::numeric(18,2), 25000.00, 'monthly', '2024-01-15'::date, 'Bench Bank',
        (1000000000 + g)::text, ARRAY['user']
      FROM generate_series(${start}::int, ${end}::int) AS g`);
  }
  await db.execute(sql`UPDATE companies SET employee_seq = employee_seq + ${n} WHERE id = ${companyId}`);
  return n;
}
