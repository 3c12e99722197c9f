// Large data sets for the growth scenario (bench/scenarios/growth.ts): one company's users written by
// PostgreSQL itself (INSERT ... SELECT), so that a million rows take seconds rather than the minutes
// the row-building seeder of users-fixture.ts would, and the bench's time goes to measuring. The users
// look like users-fixture.ts's (the same columns set), and each can be paid: a valid NUBAN at a known
// bank (runs pay only those) and a state of residence (their PAYE goes to Lagos). The first two are
// administrators: one creates runs, the other approves them (a run's approver must not be its creator).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { companyDomains, userTypes } from '../../src/db/schema/index.js';
import { nubanFor } from '../../src/modules/banks/index.js';

/** Access Bank: a bank the sandbox pays. */
const BANK_CODE = '044';

/** Adds `n` users to `companyId` in batches of `batch` (one statement and commit each); returns their count. The first two are `first1.last1@<domain>` and `first2.last2@<domain>`. */
export async function seedUsersSql(db: Db, companyId: number, n: number, batch = 100_000): Promise<number> {
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, companyId)).limit(1);
  const [type] = await db.select().from(userTypes).where(eq(userTypes.companyId, companyId)).limit(1);
  for (let start = 1; start <= n; start += batch) {
    const end = Math.min(n, start + batch - 1);
    // The account numbers are computed here, by the one NUBAN rule of src/, and sent as one JSON parameter.
    const accounts = Array.from({ length: end - start + 1 }, (_, i) => nubanFor(BANK_CODE, String(200_000_000 + start + i)));
    await db.execute(sql`
      INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id,
        domain_id, is_active, onboarding_completed, title, department, base_salary, allowances, payment_frequency,
        start_date, bank_name, bank_code, account_number, state_of_residence, roles)
      SELECT ${companyId}, 'G-' || lpad(g::text, 7, '0'), 'First' || g, 'Last' || g,
        'first' || g || '.last' || g || '@' || ${domain.name}, 'first' || g || '.' || ${companyId} || '@personal.test',
        md5(${companyId}::text || '-' || g::text), ${type?.id ?? null}::int, ${domain.id}, true, true, 'Engineer', 'Operations',
        (250000 + (g % 50) * 1000)::numeric(18,2), 25000.00, 'monthly', '2024-01-15'::date, 'Access Bank', ${BANK_CODE},
        account, 'LA', CASE WHEN g <= 2 THEN ARRAY['user', 'admin'] ELSE ARRAY['user'] END
      FROM (SELECT (${start} + i - 1)::int AS g, account
            FROM jsonb_array_elements_text(${JSON.stringify(accounts)}::jsonb) WITH ORDINALITY AS a(account, i)) s`);
  }
  await db.execute(sql`UPDATE companies SET employee_seq = employee_seq + ${n} WHERE id = ${companyId}`);
  return n;
}
