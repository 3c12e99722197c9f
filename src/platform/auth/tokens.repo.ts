// All SQL of api_tokens and auth_generation: tokens.ts holds the rules (the token string, its hash,
// scopes) and calls these; authenticate.ts reads tokens and writes expiry through them, last-use.ts
// the last uses.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { preparedPerExecutor } from '../../db/prepared.js';
import { apiTokens, authGeneration, companies } from '../../db/schema/index.js';

export interface TokenRecord {
  id: number;
  companyId: number;
  scopes: string[];
  lastUsedAt: Date;
  expiredAt: Date | null;
  revokedAt: Date | null;
  companyActive: boolean;
  apiAccess: boolean;
  plan: string;
}

// The two reads of authentication that run on a cache miss and once a second (authenticate.ts),
// prepared once per executor like the hot reads (src/db/prepared.ts): parsed and planned once per
// connection instead of on every call.
//
// The token is read by its hash and its company by its key, each in a LATERAL subquery with a
// LIMIT, which PostgreSQL cannot turn back into a join. As plain joins, on statistics taken when
// there were few companies, the generic plan was a merge join walking `companies_pkey` (and
// api_tokens) from the first company up to the token's: every company created before it, read at
// every cache miss (tokens-lookup-plan.test.ts; docs/decisions.md, "Authentication cache").
const preparedLookup = preparedPerExecutor((executor) => {
  const token = executor
    .select({
      id: apiTokens.id,
      companyId: apiTokens.companyId,
      scopes: apiTokens.scopes,
      lastUsedAt: apiTokens.lastUsedAt,
      expiredAt: apiTokens.expiredAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .as('auth_token');
  const company = executor
    .select({ companyActive: companies.isActive, apiAccess: companies.apiAccess, plan: companies.plan })
    .from(companies)
    .where(eq(companies.id, token.companyId))
    .limit(1)
    .as('auth_token_company');
  return executor
    .select({
      generation: authGeneration.generation,
      id: token.id,
      companyId: token.companyId,
      scopes: token.scopes,
      lastUsedAt: token.lastUsedAt,
      expiredAt: token.expiredAt,
      revokedAt: token.revokedAt,
      companyActive: company.companyActive,
      apiAccess: company.apiAccess,
      plan: company.plan,
    })
    .from(authGeneration)
    .leftJoinLateral(token, sql`true`)
    .leftJoinLateral(company, sql`true`)
    .where(eq(authGeneration.id, 1))
    .limit(1)
    .prepare('auth_token_lookup');
});
const preparedGeneration = preparedPerExecutor((executor) =>
  executor
    .select({ generation: authGeneration.generation })
    .from(authGeneration)
    .where(eq(authGeneration.id, 1))
    .prepare('auth_generation'),
);

export const tokensRepo = {
  /** Revokes the company's live tokens; their ids (none: the company had no live token). */
  async revokeLive(executor: Executor, companyId: number): Promise<number[]> {
    const rows = await executor
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.map((row) => row.id);
  },

  async insert(executor: Executor, companyId: number, tokenHash: string, scopes: string[]): Promise<{ id: number; lastUsedAt: Date }> {
    const [row] = await executor
      .insert(apiTokens)
      .values({ companyId, tokenHash, scopes })
      .returning({ id: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt });
    return row;
  },

  /** The token of a hash with what authentication needs of its company (findByHashWithGeneration's record). */
  async findByHash(executor: Executor, tokenHash: string): Promise<TokenRecord | undefined> {
    return (await tokensRepo.findByHashWithGeneration(executor, tokenHash)).record;
  },

  /**
   * findByHash and the authentication generation (0269) in one statement, so one snapshot: the
   * record is as new as the generation it comes with (docs/decisions.md, "Authentication cache: up
   * to 60 s, revocation within 1 s"). The generation's one row is the outer side, so an unknown
   * token still brings it.
   */
  async findByHashWithGeneration(executor: Executor, tokenHash: string): Promise<{ generation: number; record: TokenRecord | undefined }> {
    const [row] = await preparedLookup(executor).execute({ tokenHash });
    const { generation, id, companyId, lastUsedAt, scopes, companyActive, apiAccess, plan } = row;
    // Both joins found their row, or there is no such token (company_id references companies).
    const record =
      id !== null &&
      companyId !== null &&
      lastUsedAt !== null &&
      scopes !== null &&
      companyActive !== null &&
      apiAccess !== null &&
      plan !== null
        ? { id, companyId, scopes, lastUsedAt, expiredAt: row.expiredAt, revokedAt: row.revokedAt, companyActive, apiAccess, plan }
        : undefined;
    return { generation: Number(generation), record };
  },

  /** The authentication generation alone (one row by its key). */
  async generation(executor: Executor): Promise<number> {
    const [row] = await preparedGeneration(executor).execute();
    return Number(row.generation);
  },

  /** The current (not revoked) token of a company. */
  async current(executor: Executor, companyId: number) {
    const [row] = await executor
      .select({
        id: apiTokens.id,
        scopes: apiTokens.scopes,
        lastUsedAt: apiTokens.lastUsedAt,
        expiredAt: apiTokens.expiredAt,
        createdAt: apiTokens.createdAt,
      })
      .from(apiTokens)
      .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)))
      .limit(1);
    return row;
  },

  async markExpired(executor: Executor, id: number, at: Date): Promise<void> {
    await executor.update(apiTokens).set({ expiredAt: at }).where(eq(apiTokens.id, id));
  },

  /**
   * Last uses in one statement (last-use.ts): each token's `at`, never moving one back (another
   * instance may have written a later use). Touches last_used_at only, so the generation stays.
   */
  async touchMany(executor: Executor, ids: readonly number[], ats: readonly Date[]): Promise<void> {
    await executor.execute(
      sql`UPDATE api_tokens AS t SET last_used_at = v.at
          FROM unnest(${pgArray(ids)}::int[], ${pgArray(ats.map((at) => at.toISOString()))}::timestamptz[]) AS v(id, at)
          WHERE t.id = v.id AND t.last_used_at < v.at`,
    );
  },
};
