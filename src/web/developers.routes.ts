// Developers → Webhooks (docs/webhooks.md): add an endpoint (its secret shown once, with a copy
// button), see each endpoint's recent deliveries with their status codes, retry one, send a test
// event, rotate the secret, enable or disable. Everything goes through the webhooks service the API uses.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { EVENT_TYPES } from '../modules/webhooks/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const BASE = '/console/developers/webhooks';
/** The console acts with the company's `all` (docs/webhooks.md, "Scopes"). */
const CONSOLE = { via: 'console' } as const;
const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const DONE: Record<string, string> = {
  tested: 'Test event queued: it appears in the deliveries below within seconds.',
  retried: 'Delivery queued for another attempt.',
  updated: 'Endpoint updated.',
  deleted: 'Endpoint deleted.',
};

interface Shown {
  /** A secret to show once (just created or rotated). */
  secret?: { endpointId: number; value: string };
  /** What the add form held when it was refused, so nothing typed is lost. */
  typed?: { url: string; events: string[]; description: string };
}

/** The actions that cannot be undone ask first, on a page of their own (works without the script). */
const CONFIRM: Record<string, { title: string; text: string; button: string }> = {
  'rotate-secret': {
    title: 'Rotate the signing secret',
    text: 'A new signing secret replaces the current one. The current secret keeps signing deliveries for 24 hours, then only the new one does: update your receiver before then.',
    button: 'Yes, rotate the secret',
  },
  delete: {
    title: 'Delete the endpoint',
    text: 'The endpoint and its delivery history are deleted, and no further events are sent to it. This cannot be undone.',
    button: 'Yes, delete the endpoint',
  },
};

/** The events an endpoint can subscribe to: every event (`*`), or types of the webhook event catalog. */
const EVENT_CHOICES = EVENT_TYPES.filter((type) => type !== 'webhook.test');

/**
 * The service's https rule, with the setting that lifts it for local development named: a developer
 * trying `http://127.0.0.1:…` is told what to set instead of only "must use https".
 */
function explained(message: string, url: string): string {
  if (!/^http:\/\//i.test(url.trim()) || !/must use https/.test(message)) return message;
  return `${message} For local development, the server's operator may set WEBHOOK_ALLOW_HTTP=true (and WEBHOOK_ALLOW_PRIVATE_NETWORKS=true for a loopback or private address such as 127.0.0.1); see docs/webhooks.md.`;
}

function eventsFieldset(ticked: string[]): Html {
  const box = (value: string, label: Html | string) => {
    const id = `event-${value.replace(/[^\w-]/g, '_')}`;
    return html`<label for="${id}"><input type="checkbox" id="${id}" name="events" value="${value}"${ticked.includes(value) ? html` checked` : ''}> ${label}</label>`;
  };
  return html`<fieldset><legend>Events</legend>
    <p class="hint">Tick the events to receive; nothing is ticked until you choose. “Every event” includes event types added later.</p>
    <div class="checks">${box('*', 'Every event (*)')}</div>
    <div class="checks">${EVENT_CHOICES.map((type) => box(type, html`<code>${type}</code>`))}</div>
  </fieldset>`;
}

export async function developersRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { endpoints } = ctx.services.webhooks;

  const failure = (error: unknown): { message: string; status: number } => {
    if (!(error instanceof DomainError) || error.code === 'internal') throw error;
    const message =
      Object.values(error.fields ?? {})
        .flat()
        .join(' ') || error.message;
    return { message, status: error.code === 'not_found' ? 404 : error.code === 'conflict' ? 409 : 422 };
  };

  async function render(session: SessionRow, flash: Flash = {}, shown: Shown = {}) {
    const list = await endpoints.list(session.companyId, { per_page: 50 }, {});
    const cards: Html[] = [];
    for (const endpoint of list.data.data) {
      const log = await endpoints.deliveries(session.companyId, endpoint.id, { per_page: 10 }, {});
      const action = (path: string, label: string, extra: Html | string = '', aria = '') =>
        html`<form class="inline-form" method="post" action="${BASE}/${endpoint.id}/${path}">${csrfField(session.csrfToken)}${extra}<button type="submit" class="secondary"${aria ? html` aria-label="${aria}"` : ''}>${label}</button></form>`;
      // Rotate and Delete open their confirmation page (a link: nothing happens before the confirm).
      const ask = (path: string, label: string) =>
        html`<a class="button secondary" href="${BASE}/${endpoint.id}/${path}" aria-label="${label} of ${endpoint.url}">${label}…</a>`;
      const secret =
        shown.secret?.endpointId === endpoint.id
          ? html`<div class="notice" role="status"><p>Signing secret, shown only now. Store it in your receiver:</p>
  <div class="token"><code id="secret-${endpoint.id}">${shown.secret.value}</code><button type="button" class="secondary" data-copy="secret-${endpoint.id}">Copy secret</button></div>
  <p id="secret-${endpoint.id}-status" role="status"></p></div>`
          : '';
      cards.push(html`<section aria-labelledby="endpoint-${endpoint.id}">
  <h2 id="endpoint-${endpoint.id}" class="wrap">${endpoint.url}</h2>
  <p>${endpoint.description ?? ''} Events: ${endpoint.events.join(', ')}.${endpoint.include_children ? ' Includes child companies.' : ''}
  ${endpoint.disabled ? html`<strong>Disabled</strong>${endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}` : html`Enabled.`}</p>
  ${secret}
  <div class="actions">${action('test', 'Send test event')} ${ask('rotate-secret', 'Rotate secret')}
  ${action('toggle', endpoint.disabled ? 'Enable' : 'Disable', html`<input type="hidden" name="disabled" value="${endpoint.disabled ? 'false' : 'true'}">`)}
  ${ask('delete', 'Delete')}</div>
  <div class="table-wrap"><table><caption>Recent deliveries</caption>
  <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col"></th></tr></thead>
  <tbody>${log.data.data.map(
    (d) => html`<tr><td><code>${d.event_type}</code><br><small>${d.event_id}</small></td><td>${d.status}</td><td>${d.attempts}</td>
    <td class="wrap">${d.last_status_code ?? ''} ${d.last_error ?? ''}</td><td class="nowrap">${d.last_attempt_at ? when(d.last_attempt_at) : '—'}</td>
    <td>${d.status === 'pending' ? '' : action(`deliveries/${d.id}/retry`, 'Retry', '', `Retry delivery of ${d.event_type} (${d.event_id})`)}</td></tr>`,
  )}</tbody></table></div>
</section>`);
    }
    const body = html`<section aria-labelledby="add-endpoint"><h2 id="add-endpoint">Add an endpoint</h2>
  <p class="hint">Signed deliveries following Standard Webhooks; see docs/webhooks.md for the events and how to verify them.</p>
  <form method="post" action="${BASE}">${csrfField(session.csrfToken)}
    <label for="url">URL (https)</label><input id="url" name="url" type="url" class="wide" required value="${shown.typed?.url ?? ''}">
    ${eventsFieldset(shown.typed?.events ?? [])}
    <label for="description">Description</label><input id="description" name="description" type="text" class="wide" value="${shown.typed?.description ?? ''}">
    <label for="include_children"><input id="include_children" name="include_children" type="checkbox" value="true"> Also child companies' events</label>
    <button type="submit">Add endpoint</button>
  </form></section>
${cards.length > 0 ? cards : html`<p>No webhook endpoints yet.</p>`}`;
    return page({ title: 'Webhooks', session, section: 'developers', body, flash });
  }

  app.get(
    '/developers/webhooks',
    { schema: { hide: true, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) }) }, preHandler: guard },
    async (request, reply) =>
      sendHtml(
        reply,
        await render(sessionOf(request), {
          notice: request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done] : undefined,
        }),
      ),
  );

  app.post(
    '/developers/webhooks',
    {
      schema: {
        hide: true,
        body: Type.Object({
          ...Csrf,
          url: Type.String({ maxLength: 2048 }),
          // Checkboxes (one value each); a comma-separated string is accepted too.
          events: Type.Optional(
            Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })]),
          ),
          description: Type.Optional(Type.String({ maxLength: 255 })),
          include_children: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { url, description, include_children } = request.body;
      const events = [request.body.events ?? []]
        .flat()
        .flatMap((value) => value.split(','))
        .map((event) => event.trim())
        .filter(Boolean);
      try {
        const created = await endpoints.create(
          session.companyId,
          {
            url: url.trim(),
            events,
            description: description?.trim() || null,
            include_children: include_children === 'true',
          },
          CONSOLE,
        );
        return sendHtml(
          reply,
          await render(session, { notice: 'Endpoint added.' }, { secret: { endpointId: created.endpoint.id, value: created.secret } }),
          201,
        );
      } catch (error) {
        const { message, status } = failure(error);
        const typed = { url, events, description: description ?? '' };
        return sendHtml(reply, await render(session, { error: explained(message, url) }, { typed }), status);
      }
    },
  );

  for (const [path, text] of Object.entries(CONFIRM)) {
    app.get(`/developers/webhooks/:id/${path}`, { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
      const session = sessionOf(request);
      try {
        const { endpoint } = await endpoints.show(session.companyId, request.params.id);
        const body = html`<section class="card">
  <p class="wrap"><strong>${endpoint.url}</strong>${endpoint.description ? ` (${endpoint.description})` : ''}</p>
  <p>${text.text}</p>
  <form method="post" action="${BASE}/${endpoint.id}/${path}">${csrfField(session.csrfToken)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">${text.button}</button>
    <a class="button secondary" href="${BASE}">Cancel</a>
  </form></section>`;
        return sendHtml(reply, page({ title: text.title, session, section: 'developers', body }));
      } catch (error) {
        const { message, status } = failure(error);
        return sendHtml(reply, await render(session, { error: message }), status);
      }
    });
  }

  const post = <P extends object>(
    path: string,
    params: P,
    run: (
      session: SessionRow,
      request: { params: { id: number } & Record<string, number>; body: Record<string, string | undefined> },
    ) => Promise<string | Shown>,
  ) =>
    app.post(
      `/developers/webhooks/:id/${path}`,
      {
        schema: {
          hide: true,
          params: Type.Object({ ...IdParams.properties, ...params }),
          body: Type.Object({
            ...Csrf,
            disabled: Type.Optional(Type.String({ maxLength: 10 })),
            confirm: Type.Optional(Type.String({ maxLength: 10 })),
          }),
        },
        preHandler: guard,
      },
      async (request, reply) => {
        const session = sessionOf(request);
        // Without the confirmation (a form posted from elsewhere, an old page): ask first.
        if (Object.hasOwn(CONFIRM, path) && request.body.confirm !== 'yes') {
          return reply.redirect(`${BASE}/${(request.params as { id: number }).id}/${path}`, 303);
        }
        try {
          const outcome = await run(session, request as never);
          if (typeof outcome === 'string') return reply.redirect(`${BASE}?done=${outcome}`, 303);
          return sendHtml(
            reply,
            await render(session, { notice: 'Secret rotated: the previous one keeps signing for 24 hours.' }, outcome),
          );
        } catch (error) {
          const { message, status } = failure(error);
          return sendHtml(reply, await render(session, { error: message }), status);
        }
      },
    );

  post('test', {}, async (session, request) => {
    await endpoints.test(session.companyId, request.params.id);
    return 'tested';
  });
  post('rotate-secret', {}, async (session, request) => {
    const rotated = await endpoints.rotateSecret(session.companyId, request.params.id);
    return { secret: { endpointId: request.params.id, value: rotated.secret } };
  });
  post('toggle', {}, async (session, request) => {
    await endpoints.update(session.companyId, request.params.id, { disabled: request.body.disabled === 'true' }, CONSOLE);
    return 'updated';
  });
  post('delete', {}, async (session, request) => {
    await endpoints.destroy(session.companyId, request.params.id);
    return 'deleted';
  });
  post('deliveries/:delivery_id/retry', { delivery_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, async (session, request) => {
    await endpoints.retry(session.companyId, request.params.id, request.params.delivery_id);
    return 'retried';
  });
}
