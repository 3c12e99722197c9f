// An active loan's changes in the console (docs/payroll.md, "Loans and salary advances"): Skip a
// period, Settle and Write off. The form posts, a confirm page shows what will be recorded, its
// button posts again with confirm=yes, then post/redirect/get back to the employee's loans with a
// notice. loansConsoleRoutes registers these.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import { naira } from '../tax-engine/money.js';
import type { Html } from './html.view.js';
import type { Flash } from './layout.view.js';
import { ActionForm, Params } from './loans.schemas.js';
import { KIND_LABEL, type LoanTyped, loanConfirmPage } from './loans.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const ACTIONS = {
  skip: { label: 'Skip a period', done: 'skipped', verb: 'Skip' },
  settle: { label: 'Settle', done: 'settled', verb: 'Settle' },
  'write-off': { label: 'Write off', done: 'written-off', verb: 'Write off' },
} as const;
type Action = keyof typeof ACTIONS;

/** A DomainError's messages as one line (field messages first); anything else is not ours to show. */
export function messagesOf(error: unknown): string {
  if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
  return (
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message
  );
}

export const statusOf = (error: unknown) => (error instanceof DomainError && error.code === 'conflict' ? 409 : 422);

/** The employee's Loans and advances page, with a notice or an error and what was typed (loansConsoleRoutes builds it). */
export type LoansPage = (session: SessionRow, userId: number, flash?: Flash, form?: LoanTyped) => Promise<Html>;

export async function loanActionRoutes(root: FastifyInstance, ctx: WebContext, loansPage: LoansPage): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { loans } = ctx.services.loans;
  const rowId = (raw: string) => parseRowId(raw) ?? 0;

  const act = (action: Action) =>
    app.post(
      `/loans/:id/${action}`,
      { schema: { hide: true, params: Params, body: ActionForm }, preHandler: guard },
      async (request, reply) => {
        const session = sessionOf(request);
        const { loan } = await loans.show(session.companyId, rowId(request.params.id));
        const back = `/console/employees/${loan.user_id}/loans`;
        const period = request.body.period?.trim() ?? '';
        try {
          if (request.body.confirm !== 'yes') {
            if (loan.status !== 'active') throw new DomainError('conflict', 'Only an active loan can be changed.');
            const facts: [string, string][] = [
              ['Loan', `#${loan.id}, ${KIND_LABEL[loan.kind]}`],
              ['Balance', naira(loan.balance)],
              ...(action === 'skip' ? ([['Month without a repayment', period || '—']] as [string, string][]) : []),
              ...(action === 'settle' ? ([['Recorded as repaid early', naira(loan.balance)]] as [string, string][]) : []),
              ...(action === 'write-off' ? ([['Forgiven', naira(loan.balance)]] as [string, string][]) : []),
            ];
            const title = `${ACTIONS[action].verb} loan #${loan.id}?`;
            return sendHtml(
              reply,
              loanConfirmPage(
                session,
                title,
                facts,
                `/console/loans/${loan.id}/${action}`,
                action === 'skip' ? { period } : {},
                ACTIONS[action].label,
                back,
              ),
            );
          }
          if (action === 'skip') await loans.skip(session.companyId, loan.id, { period });
          else if (action === 'settle') await loans.settle(session.companyId, loan.id);
          else await loans.writeOff(session.companyId, loan.id);
        } catch (error) {
          return sendHtml(reply, await loansPage(session, loan.user_id, { error: messagesOf(error) }), statusOf(error));
        }
        return reply.redirect(`${back}?done=${ACTIONS[action].done}`, 303);
      },
    );
  for (const action of Object.keys(ACTIONS) as Action[]) act(action);
}
