// Database errors as the platform and the features read them: a unique violation (a clean 422/409)
// and an unreachable database (a 503). Defined in db/errors.ts, beside the pool guard that needs
// them too (db/ imports nothing above it).
export { databaseUnavailable, uniqueViolation } from '../db/errors.js';
