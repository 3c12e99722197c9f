// All SQL of the invoices feature. Every method takes the company id first; an invoice of another
// company (or a deleted one) is simply not found. State changes are single conditional UPDATEs
// (`... WHERE approval_status = 'manager_approved' RETURNING`), so of two concurrent approvals or
// payments only one can apply; the loser gets no row back and the service explains why.
import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { keyedRows, preparedPerExecutor, type TextTimestamps, withArrayRows } from '../../db/prepared.js';
import { rowVersion } from '../../db/row-version.js';
import { invoicePayments, invoices } from '../../db/schema/index.js';
import { koboToString } from '../../tax-engine/money.js';
import { exitedSql, LAGOS_TODAY_SQL } from '../users/index.js';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
/** An invoice as I1 reads it: its timestamps PostgreSQL's text on the prepared page, Dates otherwise; its row's version on that page. */
export type ListedInvoiceRow = TextTimestamps<InvoiceRow> & { version?: string };

/** I1 `sort` allow-list: request value → column. Nothing from the request reaches SQL text. */
export const SORT_COLUMNS = {
  created_at: invoices.createdAt,
  updated_at: invoices.updatedAt,
  service_date: invoices.serviceDate,
  total_amount: invoices.totalAmount,
  amount_requested: invoices.amountRequested,
  balance: invoices.balance,
  status: invoices.status,
  approval_status: invoices.approvalStatus,
  provider_name: invoices.providerName,
  category_name: invoices.categoryName,
  transaction_id: invoices.transactionId,
  id: invoices.id,
} as const;
export type SortColumn = keyof typeof SORT_COLUMNS;

export interface ListFilter {
  transactionId?: string;
  status?: string;
  approvalStatus?: string;
  sort: SortColumn;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const live = (companyId: number, transactionId: string) =>
  and(eq(invoices.companyId, companyId), eq(invoices.transactionId, transactionId), isNull(invoices.deletedAt));

/** The invoices of a list's filter as a last column: the page carries its total (one statement). */
const totalOf = (where: SQL | undefined) => sql<number | null>`(SELECT count(*) FROM ${invoices} WHERE ${where})`.mapWith(Number);

/**
 * I1's common case, a named prepared statement on the hot-reads pool (db/client.ts `hotReads`: its
 * generic plan is kept, where `LIMIT $n OFFSET $m` is planned again on every execution otherwise):
 * no filter, newest first (the defaults). Other filters and sorts (12 sort columns x 2 orders x 3
 * optional filters) stay dynamic statements on the caller's executor, with PostgreSQL's own plans.
 * Its rows come as arrays keyed by the selection's order (db/prepared.ts `keyedRows`), timestamps as
 * PostgreSQL's text: Drizzle's mapping, a decoder call per column and a Date per timestamp, was a
 * sixth of the server's CPU per page of C1, which reads the same way (docs/benchmarks.md, "C1, I1 and S6").
 */
// Each row also carries its version (db/row-version.ts; invoices.list-text.service.ts keeps texts by it).
const PAGE_KEYS = [...Object.keys(getTableColumns(invoices)), 'version', 'total'];
const preparedDefaultPage = preparedPerExecutor((executor) => {
  const where = and(eq(invoices.companyId, sql.placeholder('companyId')), isNull(invoices.deletedAt));
  return withArrayRows(
    executor
      .select({ ...getTableColumns(invoices), version: rowVersion('invoices'), total: totalOf(where) })
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('invoices_page'),
  );
});

/** I2 and every other read of one live invoice that does not lock it. */
const preparedFind = preparedPerExecutor((executor) =>
  executor
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, sql.placeholder('companyId')),
        eq(invoices.transactionId, sql.placeholder('transactionId')),
        isNull(invoices.deletedAt),
      ),
    )
    .prepare('invoices_find'),
);

export const invoicesRepo = {
  /**
   * I1: one page and the total of its filter in one statement. An empty page (past the end, or
   * nothing matches) has no row to carry the total: it is counted on its own.
   */
  async list(executor: Executor, companyId: number, filter: ListFilter): Promise<{ rows: ListedInvoiceRow[]; total: number }> {
    const { offset, limit } = filter;
    const common =
      filter.transactionId === undefined &&
      filter.status === undefined &&
      filter.approvalStatus === undefined &&
      filter.sort === 'created_at' &&
      filter.order === 'desc';
    const conditions: SQL[] = [eq(invoices.companyId, companyId), isNull(invoices.deletedAt)];
    if (filter.transactionId !== undefined) conditions.push(eq(invoices.transactionId, filter.transactionId));
    if (filter.status !== undefined) conditions.push(eq(invoices.status, filter.status));
    if (filter.approvalStatus !== undefined) conditions.push(eq(invoices.approvalStatus, filter.approvalStatus));
    const where = and(...conditions);
    const direction = filter.order === 'asc' ? asc : desc;
    const rows: (ListedInvoiceRow & { total: number | null })[] = common
      ? keyedRows(PAGE_KEYS, await preparedDefaultPage(hotReads(executor)).execute({ companyId, offset, limit }))
      : await executor
          .select({ ...getTableColumns(invoices), total: totalOf(where) })
          .from(invoices)
          .where(where)
          // id breaks ties so that pages never overlap or skip rows.
          .orderBy(direction(SORT_COLUMNS[filter.sort]), direction(invoices.id))
          .limit(limit)
          .offset(offset);
    const total = rows[0]?.total ?? (await executor.select({ value: count() }).from(invoices).where(where))[0].value;
    return { rows, total };
  },

  async find(executor: Executor, companyId: number, transactionId: string, forUpdate = false): Promise<InvoiceRow | undefined> {
    if (forUpdate) {
      const [row] = await executor.select().from(invoices).where(live(companyId, transactionId)).for('update');
      return row;
    }
    const [row] = await preparedFind(hotReads(executor)).execute({ companyId, transactionId });
    return row;
  },

  /** Invoices waiting for a manager or for finance, oldest first (the console's approval queue). */
  async awaitingApproval(executor: Executor, companyId: number, limit: number): Promise<InvoiceRow[]> {
    return executor
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.companyId, companyId),
          isNull(invoices.deletedAt),
          inArray(invoices.approvalStatus, ['pending', 'manager_approved']),
        ),
      )
      .orderBy(asc(invoices.createdAt), asc(invoices.id))
      .limit(limit);
  },

  /** A non-deleted user of the company by company or personal e-mail (either case). */
  async findUserByEmail(executor: Executor, companyId: number, email: string): Promise<{ id: number; email: string } | undefined> {
    const rows = await queryRows<{ id: number; email: string }>(
      executor,
      sql`SELECT id, email FROM users
          WHERE company_id = ${companyId} AND deleted_at IS NULL AND (email = ${email} OR lower(personal_email) = ${email})
          ORDER BY (email = ${email}) DESC, id LIMIT 1`,
    );
    return rows[0];
  },

  /**
   * Whether `email` is the company e-mail of an active, unsuspended, live user of the company or of
   * a company above it (a parent's staff approve for its children). One probe of users_email_key.
   */
  async isApproverOf(executor: Executor, companyId: number, email: string): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`WITH RECURSIVE chain(id, created_by, depth) AS (
            SELECT id, created_by, 0 FROM companies WHERE id = ${companyId}
            UNION ALL
            SELECT c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by WHERE chain.depth < 64)
          SELECT u.id FROM users u
          WHERE u.email = ${email} AND u.deleted_at IS NULL AND u.is_active AND NOT u.is_suspended
            AND NOT ${exitedSql(sql`u.exit_date`, LAGOS_TODAY_SQL)}
            AND u.company_id IN (SELECT id FROM chain)
          LIMIT 1`,
    );
    return rows.length > 0;
  },

  async insert(executor: Executor, companyId: number, values: Omit<NewInvoice, 'companyId'>): Promise<InvoiceRow> {
    const [row] = await executor
      .insert(invoices)
      .values({ ...values, companyId })
      .returning();
    return row;
  },

  /** Field edits: only while no manager has decided. */
  async updatePending(
    executor: Executor,
    companyId: number,
    transactionId: string,
    values: Partial<NewInvoice>,
  ): Promise<InvoiceRow | undefined> {
    const [row] = await executor
      .update(invoices)
      .set({ ...values, updatedAt: new Date() })
      .where(and(live(companyId, transactionId), eq(invoices.approvalStatus, 'pending')))
      .returning();
    return row;
  },

  /** One payment: only on a finance-approved invoice, never more than the balance. */
  async recordPayment(executor: Executor, companyId: number, transactionId: string, kobo: bigint): Promise<InvoiceRow | undefined> {
    const amount = koboToString(kobo);
    const [row] = await executor
      .update(invoices)
      .set({
        amountPaid: sql`${invoices.amountPaid} + ${amount}::numeric`,
        balance: sql`${invoices.balance} - ${amount}::numeric`,
        status: sql`CASE WHEN ${invoices.balance} - ${amount}::numeric = 0 THEN 'paid' ELSE 'partially_paid' END`,
        updatedAt: new Date(),
      })
      .where(and(live(companyId, transactionId), eq(invoices.approvalStatus, 'approved'), sql`${invoices.balance} >= ${amount}::numeric`))
      .returning();
    if (row) await executor.insert(invoicePayments).values({ invoiceId: row.id, companyId, amount });
    return row;
  },

  /** I5: pending → manager_approved | rejected. */
  async managerDecide(
    executor: Executor,
    companyId: number,
    transactionId: string,
    values: {
      approvalStatus: 'manager_approved' | 'rejected';
      managerEmail: string;
      comment: string | null;
      financeApproverEmail: string | null;
    },
  ): Promise<InvoiceRow | undefined> {
    const [row] = await executor
      .update(invoices)
      .set({
        approvalStatus: values.approvalStatus,
        approvedByManagerEmail: values.managerEmail,
        managerComment: values.comment,
        financeApproverEmail: values.financeApproverEmail ?? sql`${invoices.financeApproverEmail}`,
        managerDecidedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(live(companyId, transactionId), eq(invoices.approvalStatus, 'pending')))
      .returning();
    return row;
  },

  /** I6: manager_approved → approved (status pending: awaiting payment) | denied. */
  async financeDecide(
    executor: Executor,
    companyId: number,
    transactionId: string,
    values: { approve: boolean; financeApproverEmail: string; comment: string | null },
  ): Promise<InvoiceRow | undefined> {
    const [row] = await executor
      .update(invoices)
      .set({
        approvalStatus: values.approve ? 'approved' : 'denied',
        status: values.approve ? 'pending' : sql`${invoices.status}`,
        financeApproverEmail: values.financeApproverEmail,
        financeComment: values.comment,
        financeDecidedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(live(companyId, transactionId), eq(invoices.approvalStatus, 'manager_approved')))
      .returning();
    return row;
  },

  /** I7: soft delete, refused in the same statement for paid or partially paid invoices. */
  async softDelete(executor: Executor, companyId: number, transactionId: string): Promise<boolean> {
    const rows = await executor
      .update(invoices)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(live(companyId, transactionId), sql`${invoices.status} NOT IN ('paid', 'partially_paid')`))
      .returning({ id: invoices.id });
    return rows.length > 0;
  },
};
