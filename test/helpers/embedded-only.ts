import { describe } from 'vitest';

/**
 * For tests whose server or CLI processes always run on the embedded database (the child process
 * never inherits DATABASE_URL): CI runs the suite twice, embedded then PostgreSQL + Redis, and the
 * second pass would repeat them unchanged, so they run in the embedded pass only (`npm test` without
 * DATABASE_URL runs them). Keeps CI well under its 20 minutes as the suite grows.
 */
export const describeEmbedded = describe.skipIf(Boolean(process.env.DATABASE_URL));
