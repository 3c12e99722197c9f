// Developers → Webhooks, one endpoint's actions (docs/webhooks.md): send a test event, retry a
// delivery, enable or disable, and the two that cannot be undone, rotate the secret and delete,
// each asked first on a confirmation page of its own. developersRoutes registers these.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { ActionBody, IdParams } from './developers.schemas.js';
import { BASE, CONFIRM, confirmBody, type Shown } from './developers.view.js';
import type { Html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The console acts with the company's `all` (docs/webhooks.md, "Scopes"). */
export const CONSOLE = { via: 'console' } as const;

/** The Webhooks page, with a notice or an error, and what it shows once (developersRoutes builds it). */
export type RenderWebhooks = (session: SessionRow, flash?: Flash, shown?: Shown) => Promise<Html>;

/** A refusal of the webhooks service as the page's message and status; anything else is not ours to show. */
export function failure(error: unknown): { message: string; status: number } {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  const message =
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message;
  return { message, status: error.code === 'not_found' ? 404 : error.code === 'conflict' ? 409 : 422 };
}

export async function webhookActionRoutes(root: FastifyInstance, ctx: WebContext, render: RenderWebhooks): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { endpoints } = ctx.services.webhooks;

  for (const [path, text] of Object.entries(CONFIRM)) {
    app.get(`/developers/webhooks/:id/${path}`, { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
      const session = sessionOf(request);
      try {
        const { endpoint } = await endpoints.show(session.companyId, request.params.id);
        const body = confirmBody(session, endpoint, path, text);
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
          body: ActionBody,
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
