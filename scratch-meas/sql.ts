import { PgDialect } from 'drizzle-orm/pg-core';
import { runsJsonRepo } from '../src/modules/payroll-runs/payroll-runs.json.repo.js';
const fake = { dialect: new PgDialect(), _: { session: { prepareQuery: (built: { sql: string }) => ({ execute: async () => { console.log(built.sql); return { rows: [] }; } }) } } };
await runsJsonRepo.page(fake as never, 1, 0, 20);
