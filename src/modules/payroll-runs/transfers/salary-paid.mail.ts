// The e-mail a paid employee gets when settlement moves their paystub to paid (transfers.settle.service.ts):
// net pay, period, reference, and the signed link to their payslip (docs/compliance.md, "Payslips").
import type { MailMessage } from '../../../platform/mail/outbox.js';
import { koboToNumber, toKobo } from '../../../tax-engine/money.js';
import { PAYSLIP_LINK_DAYS } from '../../paystubs/index.js';
import type { SettledPaystub } from './transfers.repo.js';

const naira = (amount: string) =>
  `NGN ${koboToNumber(toKobo(amount) ?? 0n).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function paidMail(companyId: number, company: string, paystub: SettledPaystub, payslipUrl: string): MailMessage {
  const period = `${paystub.pay_period_start} to ${paystub.pay_period_end}`;
  return {
    companyId,
    to: paystub.personal_email,
    subject: `${company} has paid your salary for ${period}`,
    text:
      `Hello ${paystub.first_name},\n\n${company} has paid your net pay of ${naira(paystub.net_pay)} for the pay period ${period} ` +
      `to your bank account (reference ${paystub.reference}).\n\n` +
      `Your payslip (PDF): ${payslipUrl}\nThis link is yours alone and works for ${PAYSLIP_LINK_DAYS} days; keep the PDF if you need it later.\n`,
  };
}
