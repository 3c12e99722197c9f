// One Drizzle pg-core schema for PGlite and PostgreSQL. Each feature owns its file; the SQL that
// creates its tables is in src/db/migrations (append-only, checked against this schema by a test).
export * from './audit.js';
export * from './companies.js';
export * from './invoices.js';
export * from './loans.js';
export * from './pay-items.js';
export * from './pay-schedules.js';
export * from './payroll.js';
export * from './payroll-runs.js';
export * from './platform.js';
export * from './remittances.js';
export * from './users.js';
export * from './wallet.js';
export * from './web.js';
export * from './webhooks.js';
export * from './year-to-date.js';
