// OpenAPI 3.1 generated from the route schemas, and a rendered reference at /docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
    },
    hideUntagged: false,
  });
}

export async function registerOpenApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  await app.register(scalar, { routePrefix: '/docs', configuration: { url: '/openapi.json' } });
}
