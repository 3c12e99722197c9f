// Settings a PostgreSQL deployment must name explicitly (src/config.ts refuses to start without
// them), given to every test app and every test server process. Not secrets.

/** WEBHOOK_SECRET_KEY of the tests: the base64 of 32 bytes. */
export const TEST_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
