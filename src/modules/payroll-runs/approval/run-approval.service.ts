// Approval of a run by a person (docs/payroll-runs.md, "Approval"). A token's approve approves at
// once only when the company chose `run_approval: token`; in `person` mode (the default) it records
// a request and e-mails the named administrator a link to the run's console page, where that person,
// signed in as themselves, approves. Creator and approver are compared as users (by id), whatever
// e-mail names them. Every approval, however it comes, goes through approveRun: one transaction
// that refuses overlapping salaries (one regular salary per person per period) and moves the run.
import crypto from 'node:crypto';
import type { Db, Executor, Tx } from '../../../db/client.js';
import { conflict, invalidField } from '../../../platform/errors.js';
import { isoTimestamp } from '../../../platform/format.js';
import { markIdempotentChange } from '../../../platform/idempotency-claims.js';
import type { Mailer } from '../../../platform/mail/outbox.js';
import { naira } from '../../../tax-engine/money.js';
import { lockCompanyRuns } from '../../paystubs/index.js';
import { announceRun } from '../payroll-runs.events.js';
import { findRun, MESSAGES, runView } from '../payroll-runs.lookup.service.js';
import { type Approval, payrollRunsRepo, type RunRow } from '../payroll-runs.repo.js';
import { paystubsAwaitingApproval, pinDestinations, releaseHeld } from './destinations.service.js';
import { APPROVAL_LINK_HOURS, runApprovalRepo } from './run-approval.repo.js';

export const APPROVAL_MESSAGES = {
  requested: 'Approval requested.',
  overlap: 'Some paystubs overlap paystubs already approved or paid.',
  linkInvalid: 'This approval link has expired or was replaced by a later request. Open the run from Payroll to approve it.',
} as const;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
const normalEmail = (email: string) => email.trim().toLowerCase();

/** The console page an approval e-mail links to (the path carries the link's secret). */
export const approvalLinkPath = (runId: string, token: string) => `/console/payroll/${encodeURIComponent(runId)}/approval/${token}`;

/** 409 with each overlapping pair, when any of the run's paystubs would be a second salary for a period. */
async function refuseOverlaps(executor: Executor, companyId: number, runId: string): Promise<void> {
  const overlaps = await runApprovalRepo.overlaps(executor, companyId, runId);
  if (overlaps.length === 0) return;
  throw conflict(APPROVAL_MESSAGES.overlap, {
    overlaps: overlaps.map((o) => ({
      paystub_id: o.paystub_id,
      user_id: o.user_id,
      other_paystub_id: o.other_paystub_id,
      period: { pay_period_start: o.pay_period_start, pay_period_end: o.pay_period_end },
    })),
  });
}

/**
 * draft → approved, in the caller's transaction, after the checks that need the company's runs to
 * stand still (approvals and run creation of one company take turns on its run lock); each paystub's
 * payment destination is pinned in the same transaction (docs/payroll-runs.md, "Payment
 * destinations"). A run past draft is approved again only to release the paystubs that wait for
 * approval of a new bank account (releaseHeld); else 409. The request's Idempotency-Key is marked
 * with the run in this transaction (docs/decisions.md, "Idempotency-Key after a crash").
 */
export async function approveRun(tx: Tx, companyId: number, runId: string, approval: Approval): Promise<RunRow> {
  await lockCompanyRuns(tx, companyId);
  const current = await payrollRunsRepo.find(tx, companyId, runId);
  if (current && current.status !== 'draft') {
    const released = await releaseHeld(tx, companyId, runId, approval);
    if (!released) throw conflict(MESSAGES.onlyDraftApproved);
    await runApprovalRepo.deleteRequest(tx, companyId, runId);
    await markIdempotentChange(tx, { kind: 'payroll-run', id: released.id });
    return announceRun(tx, released, 'payroll_run.approved');
  }
  await refuseOverlaps(tx, companyId, runId);
  const approved = await payrollRunsRepo.approve(tx, companyId, runId, approval);
  if (!approved) throw conflict(MESSAGES.onlyDraftApproved);
  await pinDestinations(tx, companyId, runId);
  await runApprovalRepo.deleteRequest(tx, companyId, runId);
  await markIdempotentChange(tx, { kind: 'payroll-run', id: approved.id });
  return announceRun(tx, approved, 'payroll_run.approved');
}

/** Whether an approval can do anything: a draft run, or one with paystubs waiting for approval of a new account. */
async function approvable(executor: Executor, run: RunRow): Promise<boolean> {
  return run.status === 'draft' || (await paystubsAwaitingApproval(executor, run.company_id, run.id)).length > 0;
}

export function createRunApprovals(deps: { db: Db; mailer: Mailer; config: { publicUrl: string } }) {
  const { db, mailer, config } = deps;

  /** The run's creator as a user id (runs created before creators were users: by their e-mail). */
  async function creatorOf(run: RunRow): Promise<number | undefined> {
    if (run.created_by_user_id !== null) return run.created_by_user_id;
    if (!run.created_by_email) return undefined;
    return (await runApprovalRepo.companyUser(db, run.company_id, run.created_by_email))?.id;
  }

  async function approveNow(companyId: number, runId: string, approval: Approval) {
    const approved = await db.transaction((tx) => approveRun(tx, companyId, runId, approval));
    return { message: MESSAGES.approved, run: await runView(db, approved) };
  }

  /** Records (or replaces) the request and e-mails its link, in one transaction. */
  async function request(run: RunRow, approver: { id: number; email: string }) {
    const token = crypto.randomBytes(32).toString('base64url');
    const link = `${config.publicUrl}${approvalLinkPath(run.id, token)}`;
    const expiresAt = await db.transaction(async (tx) => {
      // Taken like an approval takes it: a request never outlives a concurrent approval or cancel.
      await lockCompanyRuns(tx, run.company_id);
      const expires = await runApprovalRepo.putRequest(
        tx,
        run.company_id,
        run.id,
        {
          approverUserId: approver.id,
          approverEmail: approver.email,
          tokenHash: sha256(token),
        },
        run.status !== 'draft',
      );
      if (expires === undefined) throw conflict(MESSAGES.onlyDraftApproved);
      await mailer.send(tx, {
        companyId: run.company_id,
        to: approver.email,
        subject: `Please approve payroll run ${run.id}`,
        text: [
          'Hello,',
          '',
          `You are asked to approve payroll run ${run.id}: pay period ${run.pay_period_start} to ${run.pay_period_end},`,
          `${run.totals.employees ?? 0} employees, net pay ${naira(String(run.totals.net_pay ?? '0'))}.`,
          '',
          `Sign in to the console as ${approver.email} and approve it here (the link works for ${APPROVAL_LINK_HOURS} hours):`,
          link,
          '',
          'Nothing is approved until you approve it there. If you did not expect this request, do not approve the run.',
        ].join('\n'),
      });
      return expires;
    });
    return {
      message: APPROVAL_MESSAGES.requested,
      run: await runView(db, run),
      approval_request: { approver_email: approver.email, expires_at: isoTimestamp(expiresAt) as string },
    };
  }

  return {
    /**
     * POST /api/payroll-runs/{id}/approve with a token: in `token` mode approves at once (200); in
     * `person` mode records an approval request for the named administrator (202, the run stays draft).
     */
    async approve(companyId: number, id: string, approverEmail: string | undefined) {
      const run = await findRun(db, companyId, id);
      if (!approverEmail?.trim()) throw invalidField('approver_email', MESSAGES.approverRequired);
      if (!(await approvable(db, run))) throw conflict(MESSAGES.onlyDraftApproved);
      const email = normalEmail(approverEmail);
      const mode = await runApprovalRepo.mode(db, companyId);
      // In person mode the approver approves in this company's console, so only its own administrators
      // can; a token-mode approver may also be an administrator of a company above it.
      const companies = mode === 'token' ? await runApprovalRepo.companyAndAncestors(db, companyId) : [companyId];
      const approver = await runApprovalRepo.admin(db, companies, email);
      if (!approver) throw invalidField('approver_email', MESSAGES.notApprover);
      if (approver.id === (await creatorOf(run))) throw invalidField('approver_email', MESSAGES.approverIsCreator);
      if (mode === 'token') return approveNow(companyId, id, { userId: approver.id, email, via: 'token' });
      // Refused now rather than after someone was asked to approve what cannot be approved.
      if (run.status === 'draft') await refuseOverlaps(db, companyId, id);
      return request(run, { id: approver.id, email });
    },

    /**
     * The console's approve: the signed-in administrator approves, never on someone else's behalf;
     * with the secret of an e-mailed link that was sent to them, the run records `email_link`.
     */
    async approveAsPerson(companyId: number, id: string, person: { userId: number }, linkToken?: string) {
      const run = await findRun(db, companyId, id);
      if (!(await approvable(db, run))) throw conflict(MESSAGES.onlyDraftApproved);
      const approver = await runApprovalRepo.adminById(db, companyId, person.userId);
      if (!approver) throw invalidField('approver_email', MESSAGES.notApprover);
      if (approver.id === (await creatorOf(run))) throw invalidField('approver_email', MESSAGES.approverIsCreator);
      let via: Approval['via'] = 'console';
      if (linkToken !== undefined) {
        const live = await runApprovalRepo.liveRequest(db, companyId, id, sha256(linkToken));
        if (!live || live.approver_user_id !== approver.id) throw conflict(APPROVAL_MESSAGES.linkInvalid);
        via = 'email_link';
      }
      return approveNow(companyId, id, { userId: approver.id, email: approver.email, via });
    },

    /** Whom an e-mailed link is for, while it works (the run's current request, not expired). */
    async approvalLinkFor(companyId: number, id: string, token: string): Promise<{ userId: number; email: string } | undefined> {
      if (token.length > 100) return undefined;
      const live = await runApprovalRepo.liveRequest(db, companyId, id, sha256(token));
      return live ? { userId: live.approver_user_id, email: live.approver_email } : undefined;
    },
  };
}
