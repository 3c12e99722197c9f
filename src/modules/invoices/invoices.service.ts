// Invoices (I1-I7, docs/companies-invoices.md, "The companies and invoices rules"): an employee's
// claim goes pending → manager_approved (or rejected) → approved (or denied) by finance → paid in
// one or more payments. Every move is one conditional UPDATE; when it finds no row, the current row
// tells which rule refused it.
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { conflict, invalid, invalidField, notFound } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { lastPageOf, pageOffset } from '../../platform/paginator.js';
import { columnToKobo, koboToString } from '../../tax-engine/money.js';
import { announce, auditChange } from './invoices.events.js';
import { createInvoiceListForApi, INVOICES_LISTED } from './invoices.list-text.service.js';
import { financeApprovalMail } from './invoices.mail.js';
import { type InvoiceRow, invoicesRepo, type NewInvoice } from './invoices.repo.js';
import { serializeInvoice } from './invoices.serializer.js';
import {
  checkRequestedWithinTotal,
  type ListQuery,
  validateCreate,
  validateFinanceDecision,
  validateListQuery,
  validateManagerDecision,
  validateUpdate,
} from './invoices.validation.js';

export const INVOICE_NOT_FOUND = 'Invoice not found.';
export const PAID_NOT_DELETABLE = 'Paid or partially paid invoices cannot be deleted.';
export const LOCKED_AFTER_REVIEW = 'Invoice details can only be changed while the invoice is pending manager approval.';
export const NEEDS_MANAGER_APPROVAL = 'Invoice must be approved by a manager before finance approval.';
export const FINANCE_ALREADY_DECIDED = 'Finance approval has already been decided for this invoice.';
export const MANAGER_ALREADY_DECIDED = 'Invoice has already been reviewed by a manager.';
export const PAYMENT_NEEDS_APPROVAL = 'Payments can only be recorded on invoices approved by finance.';
export const ALREADY_PAID = 'Invoice is already fully paid.';

const NOT_AN_APPROVER = (field: string) =>
  `The ${field} must be the company e-mail of an active user of this company or of a company above it.`;

export interface InvoicesDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
}

/** `INV-20261123-7K2Q4F9X`: date for humans, 8 characters of a 32-letter alphabet (40 bits). */
function newTransactionId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = crypto.randomBytes(8);
  let suffix = '';
  for (const byte of bytes) suffix += alphabet[byte & 31];
  return `INV-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${suffix}`;
}

const ok = (message: string, invoice: InvoiceRow) => ({ message, invoice: serializeInvoice(invoice) });

export function createInvoicesService(deps: InvoicesDeps) {
  const { db, mailer, config } = deps;
  const listForApi = createInvoiceListForApi(db, list);

  async function mustFind(executor: Executor, companyId: number, transactionId: string): Promise<InvoiceRow> {
    const row = await invoicesRepo.find(executor, companyId, transactionId);
    if (!row) throw notFound(INVOICE_NOT_FOUND);
    return row;
  }

  /**
   * Approvers are real people of the invoice's company or of a company above it: the recorded
   * approval names someone accountable, and notify_finance can only mail a colleague, never an
   * address the caller made up (docs/companies-invoices.md).
   */
  async function mustBeApprover(companyId: number, field: 'manager_email' | 'finance_approver_email', email: string | null) {
    if (email !== null && !(await invoicesRepo.isApproverOf(db, companyId, email))) {
      throw invalidField(field, NOT_AN_APPROVER(field.replace(/_/g, ' ')));
    }
  }

  async function userOf(executor: Executor, companyId: number, email: string) {
    const user = await invoicesRepo.findUserByEmail(executor, companyId, email);
    if (!user) throw invalidField('user_email', 'The selected user email is invalid.');
    return user;
  }

  /** I1 */
  async function list(companyId: number, query: ListQuery) {
    const { sort, order } = validateListQuery(query);
    const perPage = query.per_page ?? 10;
    const page = query.page ?? 1;
    const { rows, total } = await invoicesRepo.list(db, companyId, {
      transactionId: query.transaction_id || undefined,
      status: query.status,
      approvalStatus: query.approval_status,
      sort,
      order,
      offset: pageOffset(page, perPage),
      limit: perPage,
    });
    return {
      message: INVOICES_LISTED,
      invoices: rows.map(serializeInvoice),
      meta: { current_page: page, per_page: perPage, total, last_page: lastPageOf(total, perPage) },
    };
  }

  return {
    /** I1: the common page as kept texts (invoices.list-text.service.ts), any other as `list`'s object. */
    listForApi,
    list,

    /** I2 */
    async show(companyId: number, transactionId: string) {
      return ok('Invoice retrieved successfully.', await mustFind(db, companyId, transactionId));
    },

    /** I3 */
    async create(companyId: number, body: Record<string, unknown>) {
      const { input, errors } = validateCreate(body);
      if (!input) throw invalid(errors);
      const user = await userOf(db, companyId, input.userEmail);
      const requested = koboToString(input.requestedKobo);
      const values: Omit<NewInvoice, 'companyId'> = {
        userId: user.id,
        userEmail: user.email,
        description: input.description,
        serviceDate: input.serviceDate,
        providerName: input.providerName,
        totalAmount: koboToString(input.totalKobo),
        amountRequested: requested,
        amountPaid: '0',
        balance: requested,
        categoryName: input.categoryName,
        subcategoryName: input.subcategoryName ?? null,
        paymentMethod: input.paymentMethod ?? 'self',
        relationshipManagerEmail: input.relationshipManagerEmail ?? null,
        comment: input.comment ?? null,
        transactionId: newTransactionId(),
      };
      // 40 random bits make a clash very unlikely; if one happens, draw again.
      for (let attempt = 1; ; attempt++) {
        try {
          const row = await db.transaction(async (tx) => announce(tx, await invoicesRepo.insert(tx, companyId, values), 'invoice.created'));
          return ok('Invoice created successfully.', row);
        } catch (error) {
          if (uniqueViolation(error) !== 'invoices_transaction_id_key' || attempt >= 5) throw error;
          values.transactionId = newTransactionId();
        }
      }
    },

    /** I4: details while pending manager review; or one payment (`amount_paid`) once approved. */
    async update(companyId: number, transactionId: string, body: Record<string, unknown>) {
      const { input, paidKobo, errors } = validateUpdate(body);
      const current = await mustFind(db, companyId, transactionId);
      if (Object.keys(errors).length > 0) throw invalid(errors);
      const editing = Object.keys(input).length > 0;
      if (!editing && paidKobo === undefined) return ok('Invoice updated successfully.', current);

      return db.transaction(async (tx) => {
        let row = current;
        if (editing) {
          const locked = await invoicesRepo.find(tx, companyId, transactionId, true);
          if (!locked) throw notFound(INVOICE_NOT_FOUND);
          if (locked.approvalStatus !== 'pending') throw conflict(LOCKED_AFTER_REVIEW);
          const total = input.totalKobo ?? columnToKobo(locked.totalAmount);
          const requested = input.requestedKobo ?? columnToKobo(locked.amountRequested);
          const fieldErrors: Record<string, string[]> = {};
          checkRequestedWithinTotal(requested, total, fieldErrors);
          if (Object.keys(fieldErrors).length > 0) throw invalid(fieldErrors);
          const values: Partial<NewInvoice> = {
            description: input.description,
            serviceDate: input.serviceDate,
            providerName: input.providerName,
            categoryName: input.categoryName,
            subcategoryName: input.subcategoryName,
            paymentMethod: input.paymentMethod,
            relationshipManagerEmail: input.relationshipManagerEmail,
            comment: input.comment,
          };
          if (input.userEmail !== undefined) {
            const user = await userOf(tx, companyId, input.userEmail);
            values.userId = user.id;
            values.userEmail = user.email;
          }
          if (input.totalKobo !== undefined) values.totalAmount = koboToString(total);
          // Nothing is paid while pending, so the balance is the amount requested.
          if (input.requestedKobo !== undefined) values.amountRequested = values.balance = koboToString(requested);
          // Fields left undefined are not set: Drizzle's update skips undefined values.
          const updated = await invoicesRepo.updatePending(tx, companyId, transactionId, values);
          if (!updated) throw conflict(LOCKED_AFTER_REVIEW);
          row = updated;
        }
        if (paidKobo !== undefined) {
          const paid = await invoicesRepo.recordPayment(tx, companyId, transactionId, paidKobo);
          if (!paid) {
            const now = await mustFind(tx, companyId, transactionId);
            if (now.approvalStatus !== 'approved') throw conflict(PAYMENT_NEEDS_APPROVAL);
            if (now.status === 'paid') throw conflict(ALREADY_PAID);
            throw invalidField(
              'amount_paid',
              `The amount paid must not be greater than the balance of ${koboToString(columnToKobo(now.balance))}.`,
            );
          }
          row = paid;
          if (paid.status === 'paid') await announce(tx, paid, 'invoice.paid');
        }
        // A payment that settles the invoice is already recorded as invoice.paid; anything else here is
        // an invoice.updated with the fields (as I2 shows them) that changed.
        if (row.status !== 'paid' || paidKobo === undefined) await auditChange(tx, 'invoice.updated', current, row);
        return ok('Invoice updated successfully.', row);
      });
    },

    /** I5: the manager's decision; on approval, optionally e-mails the finance approver. */
    async managerDecide(companyId: number, transactionId: string, body: Record<string, unknown>) {
      const { input, errors } = validateManagerDecision(body);
      const current = await mustFind(db, companyId, transactionId);
      if (!input) throw invalid(errors);
      // Four eyes: nobody approves their own claim.
      if (input.managerEmail === current.userEmail)
        throw invalidField('manager_email', 'The manager email must not be the email of the invoice’s employee.');
      await mustBeApprover(companyId, 'manager_email', input.managerEmail);
      await mustBeApprover(companyId, 'finance_approver_email', input.financeApproverEmail);
      return db.transaction(async (tx) => {
        const row = await invoicesRepo.managerDecide(tx, companyId, transactionId, {
          approvalStatus: input.decision === 'approve' ? 'manager_approved' : 'rejected',
          managerEmail: input.managerEmail,
          comment: input.comment,
          financeApproverEmail: input.financeApproverEmail,
        });
        if (!row) {
          await mustFind(tx, companyId, transactionId);
          throw conflict(MANAGER_ALREADY_DECIDED);
        }
        // A rejection is announced (invoice.rejected, audited by the event recorder); a manager's
        // approval has no webhook event of its own, so it is audited here, with what changed.
        if (row.approvalStatus === 'rejected') await announce(tx, row, 'invoice.rejected');
        else await auditChange(tx, 'invoice.manager_approved', current, row);
        if (input.notifyFinance && input.decision === 'approve' && row.financeApproverEmail) {
          await mailer.send(tx, { companyId, ...financeApprovalMail(row, row.financeApproverEmail, config.publicUrl) });
        }
        return ok('Invoice approval updated successfully.', row);
      });
    },

    /** I6: finance decides, only after a manager approved (409 otherwise). */
    async financeDecide(companyId: number, transactionId: string, body: Record<string, unknown>) {
      const { input, errors } = validateFinanceDecision(body);
      const current = await mustFind(db, companyId, transactionId);
      if (!input) throw invalid(errors);
      if (input.financeApproverEmail === current.userEmail) {
        throw invalidField('finance_approver_email', 'The finance approver email must not be the email of the invoice’s employee.');
      }
      if (current.approvedByManagerEmail && input.financeApproverEmail === current.approvedByManagerEmail) {
        throw invalidField('finance_approver_email', 'The finance approver must be a different person from the approving manager.');
      }
      await mustBeApprover(companyId, 'finance_approver_email', input.financeApproverEmail);
      const row = await db.transaction(async (tx) => {
        const decided = await invoicesRepo.financeDecide(tx, companyId, transactionId, {
          approve: input.decision === 'approve',
          financeApproverEmail: input.financeApproverEmail,
          comment: input.comment,
        });
        return decided ? announce(tx, decided, input.decision === 'approve' ? 'invoice.approved' : 'invoice.rejected') : decided;
      });
      if (!row) {
        const now = await mustFind(db, companyId, transactionId);
        throw conflict(
          now.approvalStatus === 'approved' || now.approvalStatus === 'denied' ? FINANCE_ALREADY_DECIDED : NEEDS_MANAGER_APPROVAL,
        );
      }
      return ok('Invoice approval updated successfully.', row);
    },

    /** I7 */
    async destroy(companyId: number, transactionId: string) {
      const deleted = await db.transaction(async (tx) => {
        const before = await invoicesRepo.find(tx, companyId, transactionId);
        if (!before || !(await invoicesRepo.softDelete(tx, companyId, transactionId))) return false;
        await announce(tx, before, 'invoice.deleted');
        return true;
      });
      if (deleted) return { message: 'Invoice deleted successfully.' };
      await mustFind(db, companyId, transactionId);
      throw conflict(PAID_NOT_DELETABLE);
    },

    /** For the web console: invoices waiting for a manager or for finance, oldest first. */
    async awaitingApproval(companyId: number, limit = 50) {
      const rows = await invoicesRepo.awaitingApproval(db, companyId, limit);
      return rows.map(serializeInvoice);
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
