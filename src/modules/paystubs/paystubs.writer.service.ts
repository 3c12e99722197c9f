// Writes a planned run (paystubs.planner.ts) in the caller's transaction: one multi-row statement
// each for the paystubs (each also its contribution record), their custom contribution records and
// the one_time applications, whatever the size of the run.
import type { Executor } from '../../db/client.js';
import type { PlannedPaystub } from './paystubs.plan.types.js';
import { periodKey } from './paystubs.planner.js';
import { paystubsRepo } from './paystubs.repo.js';
import type { InsertedRow, PaystubItemRow, PaystubRow, RecordRow } from './paystubs.rows.types.js';

export interface WrittenPaystub {
  planned: PlannedPaystub;
  row: PaystubRow;
  /** Its custom contribution records, in the order the engine computed them. */
  records: RecordRow[];
  /** Its pay items, in position order. */
  items: PaystubItemRow[];
}

function itemRows(paystubId: number, { paystub }: PlannedPaystub): PaystubItemRow[] {
  return paystub.items.map((entry) => ({
    paystub_id: paystubId,
    code: entry.code,
    name: entry.name,
    treatment: entry.treatment,
    amount: entry.amount,
    taxable_amount: entry.taxableAmount,
    taxable: entry.taxable,
    pensionable: entry.pensionable,
    regular: entry.regular,
    cash: entry.cash,
    description: entry.description,
    origin_period: entry.originPeriod,
    loan_id: entry.loanId ?? null,
    loan_balance_after: entry.loanBalanceAfter ?? null,
  }));
}

/** The stored row, rebuilt from what was inserted and what the database returned. */
function paystubRow(companyId: number, transactionId: string, { paystub: p }: PlannedPaystub, meta: InsertedRow): PaystubRow {
  return {
    id: meta.id,
    company_id: companyId,
    user_id: p.userId,
    pay_period_start: p.start,
    pay_period_end: p.end,
    taxable_income: p.taxableIncome,
    reimbursements: p.reimbursements,
    other_allowances: p.otherAllowances,
    gross_pay: p.grossPay,
    net_pay: p.netPay,
    tax_withheld: p.taxWithheld,
    pension_contribution: p.pension,
    nhf_contribution: p.nhf,
    nhis_contribution: p.nhis,
    other_deductions: p.otherDeductions,
    employer_pension_contribution: p.employerPension,
    nhis_employer_contribution: p.nhisEmployer,
    employer_cost: p.employerCost,
    tax_regime: p.regime,
    taxable_items: p.taxableItems,
    irregular_gross: p.irregularGross,
    tax_true_up: p.taxTrueUp,
    off_cycle: p.offCycle,
    status: 'unpaid',
    transaction_id: transactionId,
    paid_at: null,
    payment_reference: null,
    failure_reason: null,
    hold_reason: null,
    destination_pinned_at: null,
    destination_bank_code: null,
    destination_bank_name: null,
    destination_account_last4: null,
    destination_account_name: null,
    paye_state: p.payeState,
    created_at: meta.created_at,
    updated_at: meta.updated_at,
  };
}

/**
 * `written` in planning order; `refused`: paystubs whose (user, period) the database already had
 * (ON CONFLICT DO NOTHING: should one appear concurrently despite the run lock, for example written
 * by another path, only that paystub fails; the rest are kept).
 */
export async function writePlannedPaystubs(
  tx: Executor,
  companyId: number,
  transactionId: string,
  planned: readonly PlannedPaystub[],
): Promise<{ written: WrittenPaystub[]; refused: PlannedPaystub[] }> {
  const inserted = await paystubsRepo.insertPaystubs(
    tx,
    companyId,
    transactionId,
    planned.map((p) => p.paystub),
  );
  const byKey = new Map(inserted.map((row) => [periodKey(row.user_id, row.pay_period_start, row.pay_period_end), row]));
  const refused: PlannedPaystub[] = [];
  const kept: { planned: PlannedPaystub; row: PaystubRow }[] = [];
  for (const p of planned) {
    const meta = byKey.get(periodKey(p.paystub.userId, p.paystub.start, p.paystub.end));
    if (meta) kept.push({ planned: p, row: paystubRow(companyId, transactionId, p, meta) });
    else refused.push(p);
  }

  // The paystub row is also its contribution record, so records point at the paystub's id.
  const newRecords = kept.flatMap(({ planned: p, row }) => p.records.map((record) => ({ ...record, contributionId: row.id })));
  const recordMeta = await paystubsRepo.insertRecords(tx, companyId, newRecords);
  const metaByKey = new Map(recordMeta.map((meta) => [`${meta.contribution_id}|${meta.custom_contribution_id}`, meta]));
  const recordsByContribution = new Map<number, RecordRow[]>();
  for (const record of newRecords) {
    const meta = metaByKey.get(`${record.contributionId}|${record.customContributionId}`);
    if (!meta) throw new Error(`custom contribution record ${record.contributionId}|${record.customContributionId} not returned`);
    const row: RecordRow = {
      id: meta.id,
      contribution_id: record.contributionId,
      custom_contribution_id: record.customContributionId,
      user_id: record.userId,
      name: record.name,
      employee_contribution: record.employee,
      employer_contribution: record.employer,
      created_at: meta.created_at,
      updated_at: meta.updated_at,
    };
    const list = recordsByContribution.get(row.contribution_id);
    if (list) list.push(row);
    else recordsByContribution.set(row.contribution_id, [row]);
  }

  await paystubsRepo.insertItems(
    tx,
    companyId,
    kept.flatMap(({ planned: p, row }) => p.paystub.items.map((entry) => ({ ...entry, paystubId: row.id }))),
  );
  await paystubsRepo.insertApplications(
    tx,
    kept.flatMap(({ planned: p, row }) =>
      p.oneTime.map((customContributionId) => ({ customContributionId, userId: row.user_id, paystubId: row.id })),
    ),
  );
  return {
    written: kept.map((k) => ({ ...k, records: recordsByContribution.get(k.row.id) ?? [], items: itemRows(k.row.id, k.planned) })),
    refused,
  };
}
