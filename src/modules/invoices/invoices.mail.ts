// The e-mail I5 sends the finance approver when a manager approves with notify_finance.
import type { InvoiceRow } from './invoices.repo.js';

export function financeApprovalMail(row: InvoiceRow, to: string, publicUrl: string) {
  return {
    to,
    subject: `Invoice ${row.transactionId} awaits your finance approval`,
    text: [
      `Invoice ${row.transactionId} was approved by ${row.approvedByManagerEmail} and awaits your decision.`,
      '',
      `Employee: ${row.userEmail}`,
      `Provider: ${row.providerName}`,
      `Category: ${row.categoryName}${row.subcategoryName ? ` / ${row.subcategoryName}` : ''}`,
      `Service date: ${row.serviceDate}`,
      `Amount requested: NGN ${row.amountRequested} of NGN ${row.totalAmount}`,
      row.managerComment ? `Manager's comment: ${row.managerComment}` : '',
      '',
      `Approve or deny it with PUT ${publicUrl}/api/invoices/${row.transactionId}/finance-approve.`,
    ]
      .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
      .join('\n'),
  };
}
