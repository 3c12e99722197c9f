// The SQL of signed-links.ts: the one key row per purpose in signing_keys.
import { type Executor, queryRows, sql } from '../db/client.js';

export const signingKeysRepo = {
  async read(executor: Executor, purpose: string): Promise<{ secret: string } | undefined> {
    return (await queryRows<{ secret: string }>(executor, sql`SELECT secret FROM signing_keys WHERE purpose = ${purpose}`))[0];
  },

  /** Inserts the key unless the purpose has one: the secret written, or undefined when another row won. */
  async insertIfAbsent(executor: Executor, purpose: string, secret: string): Promise<{ secret: string } | undefined> {
    const [inserted] = await queryRows<{ secret: string }>(
      executor,
      sql`INSERT INTO signing_keys (purpose, secret) VALUES (${purpose}, ${secret}) ON CONFLICT (purpose) DO NOTHING RETURNING secret`,
    );
    return inserted;
  },
};
