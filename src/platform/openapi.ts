// OpenAPI 3.1 generated from the route schemas, and a rendered reference at /docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** `webhooks`: the OpenAPI 3.1 webhooks section (the payloads the service sends), built by the webhooks module. */
export async function registerOpenApi(app: FastifyInstance, webhooks: Record<string, unknown> = {}): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Payroll and Workforce API',
        version: '1.0.0',
        description:
          'Multi-company payroll and workforce API for Nigerian employers. Every /api route needs `Authorization: Bearer <API_TOKEN>`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (operator API, only when set)' },
        },
      },
      security: [{ bearer: [] }],
      // Plain JSON built by the webhooks module; the plugin's type wants its own PathItem type.
      webhooks: webhooks as never,
    },
    hideUntagged: false,
    // Shared schemas (app.addSchema with a $id) are named by their $id in components/schemas (User,
    // Invoice, …) instead of def-<n>, so that the webhooks section can $ref the resource a payload carries.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
}

export async function registerOpenApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  // Self-contained (docs/operations.md, API reference): the script is served by the app, the fonts
  // are the browser's own, and the vendor's AI chat, toolbar and telemetry (each of which calls
  // the vendor's hosts) are off. Its sidebar credit has no option, so CSS hides that one link.
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: {
      url: '/openapi.json',
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      telemetry: false,
      customCss: 'a[href="https://www.scalar.com"] { display: none; }',
    },
  });
}
