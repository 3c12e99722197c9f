// Payslips: B's paystub (its PDF) and B's run (its ZIP) in the path, from A's own scope, A's child's
// and company_id=B. Never a PDF or a ZIP of B's, never a 500.
import type { MatrixContext } from '../probes.js';

export function payslipsProbes(context: MatrixContext): void {
  const { v, AC, add } = context;
  for (const [label, q] of [
    ['own scope', ''],
    ["A's child scope", `?company_id=${AC}`],
    ['company_id=B', `?company_id=${v.company}`],
  ] as const) {
    add({ route: 'paystubs.payslip', what: `B's paystub, ${label}`, method: 'GET', url: `/api/paystubs/${v.paystubId}/payslip${q}` });
    add({ route: 'payroll-runs.payslips', what: `B's run, ${label}`, method: 'GET', url: `/api/payroll-runs/${v.runTx}/payslips${q}` });
  }
}
