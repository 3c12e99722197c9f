// E-mails to a company's administrators about its pay schedules' runs (docs/payroll-runs.md,
// "Pay schedules"): a draft is waiting for review and approval, or a period could not be created.
import type { MailMessage } from '../../platform/mail/outbox.js';
import type { Period } from './pay-schedules.planner.js';

export function runCreatedMail(
  companyId: number,
  to: string,
  schedule: { name: string },
  period: Period,
  run: { id: string; employees: number },
  publicUrl: string,
): MailMessage {
  return {
    companyId,
    to,
    subject: `Draft payroll run ready: ${schedule.name}, ${period.start} to ${period.end}`,
    text: [
      `The pay schedule "${schedule.name}" created a draft payroll run for ${period.start} to ${period.end}`,
      `(${run.employees} employees), to be paid on ${period.paymentDate}.`,
      '',
      'Review it and have it approved before the payment date:',
      `${publicUrl}/console/payroll/${encodeURIComponent(run.id)}`,
    ].join('\n'),
  };
}

export function runNotCreatedMail(companyId: number, to: string, schedule: { name: string }, period: Period, reason: string): MailMessage {
  return {
    companyId,
    to,
    subject: `Payroll run not created: ${schedule.name}, ${period.start} to ${period.end}`,
    text: [
      `The pay schedule "${schedule.name}" could not create the payroll run for ${period.start} to ${period.end}`,
      `(payment date ${period.paymentDate}): ${reason}`,
      '',
      'Create the run yourself (POST /api/payroll-runs or the console) once this is put right; the schedule goes on with the next period.',
    ].join('\n'),
  };
}
