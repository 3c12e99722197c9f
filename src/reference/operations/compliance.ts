// Remittances, annual returns (docs/compliance.md), the audit log (docs/audit.md), webhooks (docs/webhooks.md), reference data and banks (docs/banks.md).
import type { OperationDoc } from './types.js';

const companyOnly = (description: string): OperationDoc => ({ description, body: {} });

export const COMPLIANCE_OPERATIONS: Record<string, OperationDoc> = {
  'audit-events.index': {
    description:
      'The company’s audit log (docs/audit.md), newest first: every change with its actor, action, target, field-level changes (secrets never, account numbers as their last 4), request id, address, user agent and its link in the company’s hash chain. Filters `actor_type`, `actor_id`, `action` (`user.*` for a prefix), `target_type`, `target_id`, `from`, `to`; `limit` ≤ 200; pass `next_cursor` as `cursor` for the next page. A parent reads a child’s log with `company_id`.',
  },
  'audit-events.export': {
    description: 'The same log as CSV (streamed, newest first) with the same filters; allowed by the `audit-events.index` scope.',
    responses: {
      '200':
        'id,seq,occurred_at,actor_type,actor_id,actor_email,action,target_type,target_id,changes,request_id,ip,user_agent,prev_hash,hash\n',
    },
  },
  'remittances.index': {
    description:
      'The month’s PAYE (per state), pension (per PFA), NHF and NSITF schedules from the paid paystubs of runs paid that month, with their due dates and the data they miss. Each schedule carries `status` (`due`, `overdue`, `filed`, `filed_late`; null when nothing is owed), `days_late` and its `filing` (`POST /api/remittances/filings`).',
  },
  'remittances.file': {
    description:
      "Records that a schedule was paid: `kind` (paye, pension, nhf, nsitf), `month`, `authority` (the state code for PAYE, the PFA code for pension, null otherwise), `amount`, `paid_on` (not in the future) and the authority's `receipt_reference`. One filing per schedule (409 for a second). The schedule in `GET /api/remittances` then shows `filing` with the `difference` from its amount (shown, never refused) and `status` `filed` or `filed_late` with `days_late`.",
    body: {
      kind: 'paye',
      month: '2026-03',
      authority: 'LA',
      amount: '412500.00',
      paid_on: '2026-04-09',
      receipt_reference: 'LIRS-2026-0412',
    },
  },
  'remittances.calendar': {
    description:
      'Every remittance due date of the company from `from` to `to` (at most 366 days): PAYE per state, pension per PFA, NHF and NSITF of each month with paid salaries, with amount, `status` (`due`, `overdue`, `filed`, `filed_late`), `days_late` and the filing.',
  },
  'remittances.download': {
    description: 'One schedule as CSV or XLSX (`paye.csv`, `pension.xlsx`, …); PAYE needs `state`, pension `pfa_code`.',
    responses: { '200': 'employee_id,name,tax_id,gross_pay,tax_withheld\r\nEMP-0042,Chiamaka Okafor,23456789-0001,425000.00,39413.50\r\n' },
  },
  'annual-returns.index': {
    description: 'The annual PAYE return to one state’s revenue service (JSON, or `format=csv` / `xlsx`); due 31 January.',
  },
  'annual-returns.itf': {
    description: 'The Industrial Training Fund levy of a year: 1% of the payroll for employers of 5 or more; due 1 April.',
  },
  'webhooks.index': { description: 'The company’s webhook endpoints, newest first, in the Laravel paginator family.' },
  'webhooks.store': {
    description:
      'Adds an endpoint (https) for the given event types (`*` for all); each type must be readable by the token’s scopes. The answer carries the signing secret, shown only this once.',
    body: {
      url: 'https://hooks.adebayo-logistics.ng/payroll',
      events: ['payroll_run.paid', 'paystub.paid'],
      description: 'Payroll notifications',
      include_children: false,
    },
  },
  'webhooks.show': { description: 'One endpoint (never its secret).' },
  'webhooks.update': {
    description: 'Changes the url, events, description, include_children or disabled of an endpoint.',
    body: { events: ['payroll_run.paid', 'payroll_run.failed', 'paystub.failed'], disabled: false },
  },
  'webhooks.destroy': { description: 'Deletes an endpoint and its deliveries log.' },
  'webhooks.rotate-secret': companyOnly('A new secret (shown once); for 24 hours deliveries are signed with the old and the new one.'),
  'webhooks.deliveries': { description: 'The endpoint’s deliveries, newest first, with their attempts and last answer.' },
  'webhooks.retry': companyOnly('Sends a delivery again now (same event id), with a fresh retry schedule.'),
  'webhooks.test': companyOnly('Sends a `webhook.test` event to this endpoint only.'),
  'states.index': { description: 'The 36 states and the FCT, each with its code (a user’s `state_of_residence`) and its PAYE authority.' },
  'pfas.index': { description: 'The licensed Pension Fund Administrators, each with its code (a user’s `pfa_code`).' },
  'banks.index': { description: 'Nigerian banks and microfinance banks with their CBN codes (a user’s `bank_code`).' },
};
