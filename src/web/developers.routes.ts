// Developers → Webhooks (docs/webhooks.md): add an endpoint (its secret shown once, with a copy
// button), see each endpoint's recent deliveries with their status codes, retry one, send a test
// event, rotate the secret, enable or disable. Everything goes through the webhooks service the API uses.
// This file holds the page and the add form; an endpoint's actions are developers.actions.routes.ts,
// the markup developers.view.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { CONSOLE, failure, type RenderWebhooks, webhookActionRoutes } from './developers.actions.routes.js';
import { Csrf } from './developers.schemas.js';
import { endpointCard, webhooksBody } from './developers.view.js';
import type { Html } from './html.view.js';
import { page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** `?done=` codes of the actions (developers.actions.routes.ts) and their notices. */
const DONE: Record<string, string> = {
  tested: 'Test event queued: it appears in the deliveries below within seconds.',
  retried: 'Delivery queued for another attempt.',
  updated: 'Endpoint updated.',
  deleted: 'Endpoint deleted.',
};

/**
 * The service's https rule, with the setting that lifts it for local development named: a developer
 * trying `http://127.0.0.1:…` is told what to set instead of only "must use https".
 */
function explained(message: string, url: string): string {
  if (!/^http:\/\//i.test(url.trim()) || !/must use https/.test(message)) return message;
  return `${message} For local development, the server's operator may set WEBHOOK_ALLOW_HTTP=true (and WEBHOOK_ALLOW_PRIVATE_NETWORKS=true for a loopback or private address such as 127.0.0.1); see docs/webhooks.md.`;
}

/** The events field as sent: checkboxes (one value each); a comma-separated string is accepted too. */
const eventsOf = (events: string | string[] | undefined) =>
  [events ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((event) => event.trim())
    .filter(Boolean);

export async function developersRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { endpoints } = ctx.services.webhooks;

  const render: RenderWebhooks = async (session, flash = {}, shown = {}) => {
    const list = await endpoints.list(session.companyId, { per_page: 50 }, {});
    const cards: Html[] = [];
    for (const endpoint of list.data.data) {
      const log = await endpoints.deliveries(session.companyId, endpoint.id, { per_page: 10 }, {});
      cards.push(endpointCard(session, endpoint, log.data.data, shown));
    }
    return page({ title: 'Webhooks', session, section: 'developers', body: webhooksBody(session, cards, shown), flash });
  };

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
      const events = eventsOf(request.body.events);
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

  await webhookActionRoutes(root, ctx, render);
}
