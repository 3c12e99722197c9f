// Settling transfers: shared by the transfer jobs (a refusal at send, a final status when asked)
// and the provider's webhook (transfers.webhook.service.ts). One transaction per call:
//   1. lock the run row (settlements of one run take turns, so the last one sees every result);
//   2. move each paystub processing → paid | failed, only where its reference is current and it
//      is still processing (transfersRepo.settlePaystubs): a repeated notification moves nothing;
//   2b. a reversal (money back after success) also moves a paid paystub → failed, only where it
//      is still paid (transfersRepo.reversePaid): a repeated reversal moves nothing;
//   3. for the failed ones THIS call moved, refund net pay (one entry per reference, unique index);
//   4. for the paid ones THIS call moved, the employee's e-mail (salary-paid.mail.ts) into the
//      outbox, with a signed link to their payslip (docs/compliance.md, "Payslips");
//   5. finish the run if nothing of it is processing any more; a finished run that lost a paid
//      paystub to a reversal becomes partially_paid or failed (transfersRepo.refinish).
import type { Db } from '../../../db/client.js';
import type { Mailer, MailMessage } from '../../../platform/mail/outbox.js';
import { settleLoanRepayments } from '../../loans/index.js';
import type { PayslipLinks } from '../../paystubs/index.js';
import { walletLedger } from '../../wallet/index.js';
import { announceSettlement } from '../payroll-runs.events.js';
import { payrollRunsRepo } from '../payroll-runs.repo.js';
import { paidMail } from './salary-paid.mail.js';
import { type Outcome, transfersRepo } from './transfers.repo.js';

export async function settleTransfers(
  deps: { db: Db; mailer: Mailer; payslipLinks: PayslipLinks },
  companyId: number,
  runId: string,
  outcomes: readonly Outcome[],
): Promise<{ paid: number; failed: number }> {
  if (outcomes.length === 0) return { paid: 0, failed: 0 };
  return deps.db.transaction(async (tx) => {
    await payrollRunsRepo.lock(tx, companyId, runId);
    const settled = await transfersRepo.settlePaystubs(tx, companyId, outcomes);
    const reversals = await transfersRepo.reversePaid(
      tx,
      companyId,
      outcomes.filter((o) => o.reversed),
    );
    const won = [...settled, ...reversals];
    const reversed = won.length > 0 && outcomes.some((o) => o.reversed);
    const paid = won.filter((p) => p.status === 'paid');
    const failed = won.filter((p) => p.status === 'failed');
    await walletLedger.refund(
      tx,
      failed.map((p) => ({
        companyId,
        reference: p.reference,
        amount: p.net_pay,
        description: `Refund for payroll run ${runId}: ${p.failure_reason ?? 'transfer failed'}`,
      })),
    );
    // 3b. loans repaid by the paystubs paid now fall; those repaid by reversed ones are owed again.
    await settleLoanRepayments(tx, companyId, {
      paid: paid.map((p) => p.paystub_id),
      reversed: reversals.map((p) => p.paystub_id),
    });
    if (paid.length > 0) {
      const company = await transfersRepo.companyName(tx, companyId);
      const now = new Date();
      const messages: MailMessage[] = [];
      for (const p of paid) messages.push(paidMail(companyId, company, p, await deps.payslipLinks.url(tx, p.paystub_id, now)));
      await deps.mailer.sendMany(tx, messages);
    }
    const finished =
      (await payrollRunsRepo.finish(tx, companyId, runId)) ?? (reversed ? await transfersRepo.refinish(tx, companyId, runId) : undefined);
    await announceSettlement(tx, companyId, runId, won, finished);
    return { paid: paid.length, failed: failed.length };
  });
}
