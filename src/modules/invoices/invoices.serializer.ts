import { dateOnly, isoTimestamp } from '../../platform/format.js';
import { moneyString } from '../../tax-engine/money.js';
import type { ListedInvoiceRow } from './invoices.repo.js';

/** The Invoice resource of the published interface, plus who paid what and when it was decided. */
export function serializeInvoice(invoice: ListedInvoiceRow) {
  return {
    id: invoice.id,
    company_id: invoice.companyId,
    user_id: invoice.userId,
    transaction_id: invoice.transactionId,
    description: invoice.description,
    service_date: dateOnly(invoice.serviceDate),
    provider_name: invoice.providerName,
    total_amount: moneyString(invoice.totalAmount),
    amount_requested: moneyString(invoice.amountRequested),
    amount_paid: moneyString(invoice.amountPaid),
    balance: moneyString(invoice.balance),
    status: invoice.status,
    approval_status: invoice.approvalStatus,
    category_name: invoice.categoryName,
    subcategory_name: invoice.subcategoryName,
    payment_method: invoice.paymentMethod,
    user_email: invoice.userEmail,
    relationship_manager_email: invoice.relationshipManagerEmail,
    finance_approver_email: invoice.financeApproverEmail,
    approved_by_manager_email: invoice.approvedByManagerEmail,
    comment: invoice.comment,
    manager_comment: invoice.managerComment,
    finance_comment: invoice.financeComment,
    manager_decided_at: isoTimestamp(invoice.managerDecidedAt),
    finance_decided_at: isoTimestamp(invoice.financeDecidedAt),
    created_at: isoTimestamp(invoice.createdAt),
    updated_at: isoTimestamp(invoice.updatedAt),
  };
}
