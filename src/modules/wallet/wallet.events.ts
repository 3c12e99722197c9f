// wallet.credited / wallet.debited (docs/webhooks.md): the entries just written, read back in the
// same transaction and recorded as events in it, so an entry and its announcement commit together.
import type { Executor } from '../../db/client.js';
import { recordEvents } from '../webhooks/index.js';
import { type LedgerType, walletRepo } from './wallet.repo.js';
import { serializeLedgerEntry } from './wallet-ledger.serializer.js';

export async function announceLedgerEntries(tx: Executor, kind: LedgerType, references: string[]): Promise<void> {
  if (references.length === 0) return;
  const rows = await walletRepo.entriesByReference(tx, kind, references);
  await recordEvents(
    tx,
    rows.map((row) => ({
      companyId: row.company_id,
      type: kind === 'payroll_debit' ? ('wallet.debited' as const) : ('wallet.credited' as const),
      data: serializeLedgerEntry(row),
    })),
  );
}
