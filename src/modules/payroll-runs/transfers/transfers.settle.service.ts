// Settling transfers: shared by the transfer jobs (a refusal at send, a final status when asked)
// and the provider's webhook (transfers.webhook.service.ts). One transaction per call, in two parts
// (docs/payroll-runs.md, "Exactly once", steps 3-4, and "Lock order").
// Side by side with the run's other settlements:
//   1. move each paystub processing → paid | failed, only where its reference is current and it
//      is still processing (transfersRepo.settlePaystubs): a repeated notification moves nothing;
//      a batch of outcomes locks its paystubs by id first (transfersRepo.lockOutcomes);
//   1b. a reversal (money back after success) also moves a paid paystub → failed, only where it
//      is still paid (transfersRepo.reversePaid): a repeated reversal moves nothing;
//   2. the loans repaid by the paystubs THIS call paid fall, those of reversed ones are owed again;
//   3. for the paid ones THIS call moved, the employee's e-mail (salary-paid.mail.ts) into the
//      outbox, with a signed link to their payslip (docs/compliance.md, "Payslips").
// Then in turns, from the run row's lock to the commit, so that the last one sees every other's
// commit and finishes the run:
//   4. lock the run row. Nothing that locks a run (pay, retry, cancel, approval, release) ever
//      waits for what steps 1-3 hold: processing and paid paystubs, their transfers and loans;
//   5. for the failed ones THIS call moved, refund net pay (one entry per reference, unique index):
//      the balance's row after the run's, the order pay and retry take them in;
//   6. finish the run if nothing of it is processing any more; a finished run that lost a paid
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
    // Steps 1-3, side by side with the run's other settlements: the paystubs, their loans, their e-mails.
    if (outcomes.length > 1) await transfersRepo.lockOutcomes(tx, companyId, outcomes);
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
    // Loans repaid by the paystubs paid now fall; those repaid by reversed ones are owed again.
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
    // Steps 4-6, in turns from here to the commit: the run's row, then the balance's (the order pay and retry take).
    await payrollRunsRepo.lock(tx, companyId, runId);
    await walletLedger.refund(
      tx,
      failed.map((p) => ({
        companyId,
        reference: p.reference,
        amount: p.net_pay,
        description: `Refund for payroll run ${runId}: ${p.failure_reason ?? 'transfer failed'}`,
      })),
    );
    const finished =
      (await payrollRunsRepo.finish(tx, companyId, runId)) ?? (reversed ? await transfersRepo.refinish(tx, companyId, runId) : undefined);
    await announceSettlement(tx, companyId, runId, won, finished);
    return { paid: paid.length, failed: failed.length };
  });
}
