// The link to a payslip that a paid employee's e-mail carries: PUBLIC_URL/payslips/<token>, signed
// for one paystub and 30 days (docs/compliance.md, "Payslips"). Here, below both payroll-runs (which
// writes the e-mail) and payslips (which serves the link), so neither imports the other.
import type { Executor } from '../../db/client.js';
import { createLinkSigner, type LinkCheck } from '../../platform/signed-links.js';

export const PAYSLIP_LINK_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

export function createPayslipLinks(publicUrl: string) {
  const signer = createLinkSigner('payslip-links');
  return {
    /** The link for `paystubId`, valid PAYSLIP_LINK_DAYS from `now`. */
    async url(executor: Executor, paystubId: number, now: Date = new Date()): Promise<string> {
      const token = await signer.sign(executor, paystubId, new Date(now.getTime() + PAYSLIP_LINK_DAYS * DAY_MS));
      return `${publicUrl}/payslips/${token}`;
    },
    check: (executor: Executor, token: string, now: Date = new Date()): Promise<LinkCheck> => signer.verify(executor, token, now),
  };
}

export type PayslipLinks = ReturnType<typeof createPayslipLinks>;
