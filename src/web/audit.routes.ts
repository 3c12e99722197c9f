// Console → Audit log (docs/audit.md): the company's audit events with the API's filters, each
// event's changes as a before/after diff, older pages by cursor. Reads the audit service the API uses.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ACTOR_TYPES } from '../modules/audit/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { type Html, html, when } from './html.view.js';
import { page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const BASE = '/console/audit-log';
const FILTERS = ['actor_type', 'actor_id', 'action', 'target_type', 'target_id', 'from', 'to'] as const;
const Text = Type.Optional(Type.String({ maxLength: 200 }));
type Query = Partial<Record<(typeof FILTERS)[number] | 'cursor', string>>;

const shown = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

function diff(changes: Record<string, unknown>): Html {
  const rows = Object.entries(changes) as [string, [unknown, unknown]][];
  if (rows.length === 0) return html`<span class="hint">No field changes</span>`;
  return html`<table class="diff"><tbody>${rows.map(
    ([field, [before, after]]) =>
      html`<tr><th scope="row">${field}</th><td><del>${shown(before)}</del></td><td><ins>${shown(after)}</ins></td></tr>`,
  )}</tbody></table>`;
}

export async function auditRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { events } = ctx.services.audit;

  app.get(
    '/audit-log',
    {
      schema: { hide: true, querystring: Type.Object(Object.fromEntries([...FILTERS, 'cursor'].map((name) => [name, Text]))) },
      preHandler: requireSession(ctx),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const query = Object.fromEntries(
        Object.entries(request.query as Query).filter(([, value]) => value !== undefined && value !== ''),
      ) as Query;
      let error: string | undefined;
      let result: Awaited<ReturnType<typeof events.list>> = { data: [], next_cursor: null };
      try {
        result = await events.list(session.companyId, { ...query, limit: 50 });
      } catch (failure) {
        if (!(failure instanceof DomainError) || failure.code === 'internal') throw failure;
        error =
          Object.values(failure.fields ?? {})
            .flat()
            .join(' ') || failure.message;
      }
      const input = (name: (typeof FILTERS)[number], label: string, type = 'text') =>
        html`<label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${query[name] ?? ''}">`;
      const { cursor: _cursor, ...filters } = query;
      const older = result.next_cursor ? `${BASE}?${new URLSearchParams({ ...filters, cursor: result.next_cursor })}` : undefined;
      const body = html`<form method="get" action="${BASE}" class="filters" aria-label="Filter the audit log">
  <label for="f-actor_type">Actor type</label><select id="f-actor_type" name="actor_type"><option value="">Any</option>${ACTOR_TYPES.map(
    (type) => html`<option value="${type}"${query.actor_type === type ? html` selected` : ''}>${type}</option>`,
  )}</select>
  ${input('actor_id', 'Actor id')} ${input('action', 'Action (user.* for a prefix)')} ${input('target_type', 'Target type')}
  ${input('target_id', 'Target id')} ${input('from', 'From', 'date')} ${input('to', 'To', 'date')}
  <button type="submit">Filter</button> <a href="${BASE}">Clear</a>
</form>
<div class="table-wrap"><table><caption>Audit events, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Changes</th><th scope="col">Request</th></tr></thead>
<tbody>${result.data.map(
        (
          event,
        ) => html`<tr><td><time datetime="${event.occurred_at}">${when(event.occurred_at)}</time></td><td>${event.actor.type} ${event.actor.id}${event.actor.email ? html`<br><small>${event.actor.email}</small>` : ''}</td>
  <td><code>${event.action}</code></td><td>${event.target.type} ${event.target.id}</td><td>${diff(event.changes)}</td>
  <td><small>${event.request_id ?? ''} ${event.ip ?? ''}</small></td></tr>`,
      )}</tbody></table></div>
${result.data.length === 0 ? html`<p>No events match.</p>` : ''}
${older ? html`<p><a href="${older}">Older events</a></p>` : ''}`;
      return sendHtml(reply, page({ title: 'Audit log', session, section: 'audit', body, flash: { error } }), error ? 422 : 200);
    },
  );
}
