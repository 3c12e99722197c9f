// Payroll → New off-cycle run (docs/console.md, "Payroll"; docs/payroll-runs.md, "Off-cycle runs"):
// a reason, a payment date and one pay item per active employee, posted with the session's CSRF
// secret to the same payroll-runs service as POST /api/payroll-runs with `kind: "off_cycle"`, so the
// console accepts and refuses exactly what the API does. Rows left empty are not sent. Success
// redirects to the run page with a notice (Post/Redirect/Get); a 422 re-renders the form with what
// was typed and each message next to its field: `users.N.items.0.amount` on that employee's row.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import type { Html } from './html.view.js';
import type { Flash } from './layout.view.js';
import { Body, type BodyOf } from './off-cycle.schemas.js';
import { CHOOSABLE, noProblems, OFF_CYCLE_PATH, type OffCycleForm, offCycleFormPage, type Problems, type Row } from './off-cycle.view.js';
import { runPath } from './payroll-runs.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/**
 * Arrears need the period they belong to (`origin_period`), which this one-line-per-employee form
 * does not ask for: they are paid through the API (a decision recorded in docs/console.md).
 */
const NOT_OFFERED = new Set(['arrears']);

const MESSAGES = {
  refused: 'The off-cycle run was not created: check the fields marked below.',
  noRows: 'Give at least one employee an item type and an amount.',
  typeMissing: 'Choose an item type for this amount.',
  badRows: 'Choose the employees from the list on this page.',
} as const;

const list = (value: string | string[] | undefined) => [value ?? []].flat();
/** `50,000.00` as typed: thousands separators are dropped; anything else goes to the service as typed. */
const plainAmount = (amount: string) => (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(amount) ? amount.replace(/,/g, '') : amount);

/** The rows as posted, by user id; undefined when the parallel fields do not line up. */
function readRows(body: BodyOf): Map<number, Row> | undefined {
  const ids = list(body.user_id);
  const [types, amounts, descriptions] = [list(body.type), list(body.amount), list(body.description)];
  if (types.length !== ids.length || amounts.length !== ids.length || descriptions.length !== ids.length) return undefined;
  const rows = new Map<number, Row>();
  for (const [i, id] of ids.entries()) {
    if (!/^\d{1,9}$/.test(id) || rows.has(Number(id))) return undefined;
    rows.set(Number(id), { type: types[i].trim(), amount: amounts[i].trim(), description: descriptions[i].trim() });
  }
  return rows;
}

/** A service refusal placed on the page: `users.N.items.0.amount` on the row of the Nth employee sent. */
function placeErrors(fields: Record<string, string[]>, sent: readonly number[]): Problems {
  const problems = noProblems();
  for (const [key, messages] of Object.entries(fields)) {
    const match = /^users\.(\d+)(?:\.items\.\d+\.(\w+)|\.(\w+))?$/.exec(key);
    const userId = match ? sent[Number(match[1])] : undefined;
    if (userId !== undefined) {
      const field = (['type', 'amount', 'description'] as const).find((name) => name === match?.[2]) ?? 'row';
      const row = problems.rows.get(userId) ?? {};
      row[field] = [...(row[field] ?? []), ...messages];
      problems.rows.set(userId, row);
    } else if (key === 'reason' || key === 'payment_date' || key === 'users') problems.fields[key] = messages;
    else problems.fields.general = [...(problems.fields.general ?? []), ...messages];
  }
  return problems;
}

/** The form over the company's active employees and the pay item types it offers. */
async function formPage(
  ctx: WebContext,
  session: SessionRow,
  form: OffCycleForm,
  flash: Flash = {},
  problems = noProblems(),
): Promise<Html> {
  const [{ users }, types] = await Promise.all([
    ctx.services.users.search.search(session.companyId, { status: 'active', offset: 0, limit: CHOOSABLE }),
    ctx.services.payItems.payItemTypes.list(session.companyId),
  ]);
  const offered = types.data.filter((type) => !NOT_OFFERED.has(type.code));
  return offCycleFormPage(session, form, users, offered, flash, problems);
}

export async function offCycleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await offCycleFormRoutes(root, ctx);
  await offCycleCreateRoutes(root, ctx);
}

async function offCycleFormRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  app.get(OFF_CYCLE_PATH.replace('/console', ''), { schema: { hide: true }, preHandler: guard }, async (request, reply) =>
    sendHtml(reply, await formPage(ctx, sessionOf(request), { reason: '', payment_date: lagosDate(), rows: new Map() })),
  );
}

/** The form's POST: the rows typed become the run's users; a refusal shows the form again. */
async function offCycleCreateRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { runs } = ctx.services.payrollRuns;

  app.post(OFF_CYCLE_PATH.replace('/console', ''), { schema: { hide: true, body: Body }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const body = request.body;
    const rows = readRows(body);
    const form: OffCycleForm = { reason: body.reason ?? '', payment_date: body.payment_date?.trim() ?? '', rows: rows ?? new Map() };
    const refuse = async (problems: Problems, status = 422) =>
      sendHtml(reply, await formPage(ctx, session, form, { error: MESSAGES.refused }, problems), status);
    if (!rows) return refuse({ fields: { general: [MESSAGES.badRows] }, rows: new Map() });

    // Rows with nothing typed are left out; an amount or a description without a type is asked about here.
    const sent: number[] = [];
    const users: { user_id: number; items: { type: string; amount: string; description?: string }[] }[] = [];
    const problems = noProblems();
    for (const [userId, row] of rows) {
      if (row.type === '' && row.amount === '' && row.description === '') continue;
      if (row.type === '') {
        problems.rows.set(userId, { type: [MESSAGES.typeMissing] });
        continue;
      }
      sent.push(userId);
      users.push({
        user_id: userId,
        items: [{ type: row.type, amount: plainAmount(row.amount), ...(row.description ? { description: row.description } : {}) }],
      });
    }
    if (problems.rows.size > 0) return refuse(problems);
    if (users.length === 0) return refuse({ fields: { users: [MESSAGES.noRows] }, rows: new Map() });
    try {
      const { run } = await runs.create(
        session.companyId,
        { kind: 'off_cycle', reason: form.reason, payment_date: form.payment_date || undefined, users },
        { userId: session.userId, email: session.email },
      );
      return reply.redirect(`${runPath(run.id)}?done=off_cycle_created`, 303);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'internal') throw error;
      const placed = placeErrors(error.fields ?? {}, sent);
      if (!error.fields) placed.fields.general = [error.message];
      return refuse(placed, DOMAIN_STATUS[error.code]);
    }
  });
}
