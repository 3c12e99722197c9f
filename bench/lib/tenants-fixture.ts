// Many small companies at once for the tenants scenario (bench/scenarios/tenants.ts): each with what
// setupCompany gives a company (its domain, the default user types and roles, contribution
// settings), an API token of scope `all` and `employees` active users, written by PostgreSQL itself
// in a few statements per batch of companies. Creating them one by one through setupCompany and
// issueToken (ctx.newCompany) costs ~10 statements and an audit event each: minutes for 10,000.
// Not written: the audit events of the companies' creation and of their tokens' issue.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/db/client.js';
import { pgArray } from '../../src/db/pg-array.js';

export interface Tenant {
  id: number;
  token: string;
}

// What setupCompany gives every company (company-setup.service.ts: DEFAULT_USER_TYPES, DEFAULT_ROLES).
const USER_TYPES = ['Full-time', 'Part-time', 'Contract', 'Intern'];
const ROLES = ['super-admin', 'admin', 'finance', 'manager', 'user'];

/**
 * A token as the server issues it: `pk_` and 32 random bytes, stored as its SHA-256 in hex
 * (platform/auth/tokens.ts, which bench/ may not import). Authentication looks the hash up, so a
 * token made here authenticates like one issued by the API.
 */
function newToken(): { token: string; hash: string } {
  const token = `pk_${crypto.randomBytes(32).toString('base64url')}`;
  return { token, hash: crypto.createHash('sha256').update(token).digest('hex') };
}

/**
 * `count` companies named `<tag>-<n>` (the tag keeps codes and domains apart between calls), each
 * with `employees` users, in transactions of `batch` companies; their ids and tokens, in order.
 */
export async function seedTenants(db: Db, options: { tag: string; count: number; employees: number; batch?: number }): Promise<Tenant[]> {
  const { tag, count, employees } = options;
  const batch = options.batch ?? 2000;
  const tenants: Tenant[] = [];
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.transaction(async (tx) => {
      const companies = await queryRows<{ id: number }>(
        tx,
        sql`WITH c AS (
              INSERT INTO companies (name, code, domain, plan, payment_frequency, employee_seq)
              SELECT 'Tenant ' || ${tag} || '-' || g, upper(${tag}) || g, lower(${tag}) || '-' || g || '.tenants.test',
                     'enterprise', 'monthly', ${employees}
              FROM generate_series(${from}::int, ${to}::int) AS g
              RETURNING id, domain),
            domains AS (INSERT INTO company_domains (company_id, name) SELECT id, domain FROM c),
            types AS (INSERT INTO user_types (company_id, name) SELECT c.id, t FROM c, unnest(${pgArray(USER_TYPES)}::text[]) AS t),
            roles AS (INSERT INTO roles (company_id, name) SELECT c.id, r FROM c, unnest(${pgArray(ROLES)}::text[]) AS r),
            settings AS (INSERT INTO contribution_settings (company_id) SELECT id FROM c)
            SELECT id FROM c ORDER BY id`,
      );
      const ids = companies.map((row) => row.id);
      const tokens = ids.map(() => newToken());
      // Last used at some moment of the past minute, as with live clients: authentication writes a
      // token's last use at most once a minute, so a token last used long ago (all of them, had they
      // been seeded minutes before the load) would make every first request of the load a write.
      await tx.execute(
        sql`INSERT INTO api_tokens (company_id, token_hash, scopes, last_used_at)
            SELECT id, hash, ARRAY['all'], now() - random() * interval '60 seconds'
            FROM unnest(${pgArray(ids)}::int[], ${pgArray(tokens.map((t) => t.hash))}::text[]) AS t(id, hash)`,
      );
      // The users look like scale-fixture.ts's; the company's domain from the row just written.
      await tx.execute(
        sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id,
              domain_id, is_active, onboarding_completed, title, department, base_salary, allowances, payment_frequency,
              start_date, bank_name, account_number, roles)
            SELECT d.company_id, 'T-' || lpad(g::text, 5, '0'), 'First' || g, 'Last' || g,
              'first' || g || '.last' || g || '@' || d.name, 'first' || g || '.' || d.company_id || '@personal.test',
              md5('tenant-' || d.company_id || '-' || g), ut.id, d.id, true, true, 'Engineer', 'Operations',
              (250000 + (g % 50) * 1000)::numeric(18,2), 25000.00, 'monthly', '2024-01-15'::date, 'Bench Bank',
              (2000000000 + d.company_id * 100 + g)::text, ARRAY['user']
            FROM company_domains d
            JOIN LATERAL (SELECT id FROM user_types WHERE company_id = d.company_id ORDER BY id LIMIT 1) ut ON true
            CROSS JOIN generate_series(1, ${employees}::int) AS g
            WHERE d.company_id = ANY(${pgArray(ids)}::int[])`,
      );
      ids.forEach((id, i) => {
        tenants.push({ id, token: tokens[i].token });
      });
    });
  }
  return tenants;
}

/**
 * One monthly schedule per company, paying every employee on the period's last working day, with
 * its next period (`periodStart`) due since a minute ago: what a schedule looks like on the
 * morning its run is to be made (docs/payroll-runs.md, "Pay schedules"). The first schedule's id
 * (the others follow it) and how many.
 */
export async function seedDueSchedules(db: Db, companyIds: number[], periodStart: string): Promise<{ firstId: number; count: number }> {
  const [row] = await queryRows<{ first_id: number; n: number }>(
    db,
    sql`WITH s AS (
          INSERT INTO pay_schedules (company_id, name, frequency, pay_day, first_period_start, create_days_before,
            next_period_start, next_creation_at)
          SELECT id, 'Monthly', 'monthly', 'last_working_day', ${periodStart}::date, 0, ${periodStart}::date, now() - interval '1 minute'
          FROM unnest(${pgArray(companyIds)}::int[]) AS id
          RETURNING id)
        SELECT min(id)::int AS first_id, count(*)::int AS n FROM s`,
  );
  return { firstId: row.first_id, count: row.n };
}
