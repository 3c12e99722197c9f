// Who an off-cycle run pays, and with what (docs/payroll-runs.md, "Off-cycle runs"). Pure. An
// off-cycle run pays only the items it names, to exactly the employees it names: no salary, no
// eligibility by activity (a leaver's final pay goes to someone no longer active), one paystub per
// employee dated the payment date. Its irregular items are taxed at the margin of the employee's
// salary for one period (their base_salary), as if they were paid beside it.
import { type Kobo, toKobo } from '../../../tax-engine/money.js';
import type { PlanItem, PlanPayItem } from '../../paystubs/index.js';
import { type Candidate, SKIP, type Skipped } from '../payroll-runs.planner.js';

export const OFF_CYCLE_REASONS = ['bonus', 'correction', 'final_pay', 'other'] as const;
export type OffCycleReason = (typeof OFF_CYCLE_REASONS)[number];

export interface OffCycleRequest {
  paymentDate: string;
  /** Per employee, their items (types resolved), in request order. */
  users: readonly { userId: number; items: readonly PlanPayItem[] }[];
}

export function planOffCycleItems(request: OffCycleRequest, candidates: readonly Candidate[]): { items: PlanItem[]; skipped: Skipped[] } {
  const byId = new Map(candidates.map((user) => [user.id, user]));
  const items: PlanItem[] = [];
  const skipped: Skipped[] = [];
  for (const entry of request.users) {
    const user = byId.get(entry.userId);
    if (!user) {
      skipped.push({ user_id: entry.userId, reason: SKIP.notFound });
      continue;
    }
    const salary: Kobo = toKobo(user.base_salary ?? '0') ?? 0n;
    items.push({
      index: items.length,
      rawId: entry.userId,
      userId: entry.userId,
      start: request.paymentDate,
      end: request.paymentDate,
      taxableIncome: 0n,
      otherAllowances: 0n,
      reimbursements: 0n,
      items: entry.items,
      offCycle: true,
      marginTaxableIncome: salary,
    });
  }
  return { items, skipped };
}
