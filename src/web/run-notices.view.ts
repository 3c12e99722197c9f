// Refusals of a run's actions after Post/Redirect/Get (docs/console.md, "Payroll runs"): a refused
// approve, pay, retry or cancel redirects to the run page with `?notice=<code>`, and the page says
// the text of that code. The texts are a closed set written here: nothing of the URL is shown, so a
// forged link can only pick one of these sentences. The run page itself (status, wallet balance,
// shortfall with its Top up link, held paystubs) shows where the run stands now.

/** Code → what the run page says. */
export const RUN_REFUSALS = {
  not_draft: 'Only a draft run can be approved. Nothing was approved: the run below shows where it stands now.',
  not_approved: 'Only an approved run can be paid. Nothing was paid: the run below shows where it stands now.',
  not_retryable: 'Only a failed or partially paid run can be retried. Nothing was sent again.',
  not_cancellable: 'Only a draft or approved run can be cancelled. Nothing was cancelled.',
  own_run:
    'The approver must be a different administrator from the creator. Nothing was approved: another administrator approves it, signed in as themselves.',
  not_approver: 'The approver must be an active admin of the company. Nothing was approved.',
  link_invalid: 'This approval link has expired or was replaced by a later request. Nothing was approved: approve the run from this page.',
  short_balance: 'Insufficient wallet balance. Nothing was paid: top up the wallet by the shortfall shown below, then pay again.',
  held: 'These paystubs need approval of their new bank account first. Nothing was paid: approve the new bank accounts below, then pay again.',
} as const;

export type RunRefusal = keyof typeof RUN_REFUSALS;

/**
 * The payroll-runs services' refusal messages (docs/payroll-runs.md) → codes. A refusal not listed
 * (the overlapping paystubs, whose pairs only the refusal itself carries; a field message) is
 * rendered in place, at the service's status, as before.
 */
const BY_MESSAGE: Record<string, RunRefusal> = {
  'Only a draft run can be approved.': 'not_draft',
  'Only an approved run can be paid.': 'not_approved',
  'Only a failed or partially paid run can be retried.': 'not_retryable',
  'Only a draft or approved run can be cancelled.': 'not_cancellable',
  'The approver must be a different administrator from the creator.': 'own_run',
  'The approver must be an active admin of the company.': 'not_approver',
  'This approval link has expired or was replaced by a later request. Open the run from Payroll to approve it.': 'link_invalid',
  'Insufficient wallet balance.': 'short_balance',
  'These paystubs need approval of their new bank account first.': 'held',
};

/** The code of a service refusal (its message, or its one field message), if it has one. */
export function runRefusalCode(error: { message: string; fields?: Record<string, string[]> }): RunRefusal | undefined {
  const fieldMessages = Object.values(error.fields ?? {}).flat();
  const message = fieldMessages.length === 1 ? fieldMessages[0] : error.message;
  return Object.hasOwn(BY_MESSAGE, message) ? BY_MESSAGE[message] : undefined;
}

/** The text of a `?notice=` code; anything else (unknown, forged) says nothing. */
export function runRefusalText(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(RUN_REFUSALS, code) ? RUN_REFUSALS[code as RunRefusal] : undefined;
}
