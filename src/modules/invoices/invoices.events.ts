// How invoice changes are recorded, in the change's own transaction: a move that clients follow is
// a webhook event (which the event recorder also audits, docs/audit.md); a change no event
// announces (an I4 edit, a manager's approval) is an audit event of its own.
import type { Executor } from '../../db/client.js';
import { diffFields, recordAudit } from '../../platform/audit/index.js';
import { type EventType, recordEvent } from '../webhooks/index.js';
import type { InvoiceRow } from './invoices.repo.js';
import { serializeInvoice } from './invoices.serializer.js';

/** Records an invoice event (data: the invoice as I2 answers it) in the change's transaction; returns the row. */
export async function announce(tx: Executor, row: InvoiceRow, type: EventType): Promise<InvoiceRow> {
  await recordEvent(tx, row.companyId, type, serializeInvoice(row));
  return row;
}

/** Audits an invoice change that no webhook event announces: the fields (as I2 shows them) that changed. */
export async function auditChange(tx: Executor, action: string, before: InvoiceRow, after: InvoiceRow): Promise<void> {
  const changes = diffFields(serializeInvoice(before), serializeInvoice(after));
  delete changes.updated_at;
  await recordAudit(tx, [{ companyId: after.companyId, action, target: { type: 'invoice', id: after.transactionId }, changes }]);
}
