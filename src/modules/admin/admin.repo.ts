// All SQL of the operator use cases that is not the companies' own (company-setup, vocabulary,
// tokens): the existence checks on a root company and the e-mail outbox reader.
import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { companies, outbox } from '../../db/schema/index.js';

export type OutboxMessage = Pick<typeof outbox.$inferSelect, 'id' | 'to' | 'subject' | 'text' | 'createdAt' | 'sentAt'>;

export const adminRepo = {
  async companyExists(executor: Executor, companyId: number): Promise<boolean> {
    const [company] = await executor.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    return company !== undefined;
  },

  /** Locks the company row for the rest of the transaction; false when there is no such company. */
  async lockCompany(executor: Executor, companyId: number): Promise<boolean> {
    const [company] = await executor.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
    return company !== undefined;
  },

  /** The newest outbox messages first, optionally to one address. */
  async outbox(executor: Executor, to: string | undefined, limit: number): Promise<OutboxMessage[]> {
    return executor
      .select({
        id: outbox.id,
        to: outbox.to,
        subject: outbox.subject,
        text: outbox.text,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
      })
      .from(outbox)
      .where(to ? eq(outbox.to, to) : undefined)
      .orderBy(desc(outbox.id))
      .limit(limit);
  },
};
