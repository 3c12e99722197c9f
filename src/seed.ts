// On an empty database (SEED_DEMO), a demo company and its API token, printed once.
import { count } from 'drizzle-orm';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { companies } from './db/schema/index.js';
import { setupCompany } from './modules/companies/company-setup.js';
import { issueToken } from './platform/auth/tokens.js';

export async function seedDemo(db: Db, config: Config): Promise<string | undefined> {
  const [{ value }] = await db.select({ value: count() }).from(companies);
  if (value > 0) return undefined;
  const token = await db.transaction(async (tx) => {
    const company = await setupCompany(tx, {
      name: 'Demo Company',
      domain: 'demo.test',
      redirectDomains: ['localhost', '127.0.0.1'],
      plan: 'premium',
    });
    return (await issueToken(tx, company.id)).token;
  });
  const base = config.publicUrl;
  return [
    '',
    'A demo company was created on this empty database (SEED_DEMO).',
    `  API token (shown once): ${token}`,
    '',
    'Next steps:',
    `  curl -H "Authorization: Bearer ${token}" ${base}/api/users`,
    `  API reference:  ${base}/docs`,
    `  OpenAPI:        ${base}/openapi.json`,
    '  Operator API:   set ADMIN_TOKEN and see `npx payroll --help`',
    '',
  ].join('\n');
}
