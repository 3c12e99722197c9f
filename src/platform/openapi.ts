// OpenAPI 3.1 generated from the route schemas, and a rendered reference at /docs. The words and
// examples around the schemas (introduction, tags, descriptions, examples) live in src/reference/
// and are joined to the generated document here, centrally, keyed by each route's name
// (docs/api-reference.md), so that no route file carries documentation text of its own.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { completeDocument, type OperationFacts, operationIdOf, plainSummary, uniqueOperationId } from '../reference/document.js';
import { API_INTRODUCTION, API_TAGS } from '../reference/introduction.js';
import type { AppDeps } from './deps.js';

/** `webhooks`: the OpenAPI 3.1 webhooks section (the payloads the service sends), built by the webhooks module. */
export async function registerOpenApi(app: FastifyInstance, webhooks: Record<string, unknown> = {}): Promise<void> {
  // buildApp attaches deps before registering this plugin; the server is PUBLIC_URL (config.ts).
  const publicUrl = (app as FastifyInstance & { deps?: AppDeps }).deps?.config.publicUrl ?? 'http://localhost:3000';
  // What the transform learns of each route (its name, error family, messages), read by completeDocument.
  const facts = new Map<string, OperationFacts>();
  const owners = new Map<string, string>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Payroll and Workforce API',
        version: '1.0.0',
        description: API_INTRODUCTION,
        contact: { name: 'Payroll API support', email: 'api-support@payroll.example', url: `${publicUrl}/docs` },
        license: { name: 'Proprietary', url: `${publicUrl}/docs` },
      },
      servers: [{ url: publicUrl, description: 'This deployment (PUBLIC_URL)' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: "The company's API token (`pk_…`)" },
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
    // Per route: a stable operationId from its name, a summary without the spec's codes. The route's
    // own schema object is shared with validation, so it is copied, never changed.
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const config = route.config ?? {};
      const method = [route.method].flat()[0] ?? 'GET';
      const operationId = uniqueOperationId(owners, operationIdOf(config.name, method, url), method, url);
      facts.set(operationId, {
        name: config.name,
        family: config.family ?? 'plain',
        notFound: config.notFoundMessage,
        forbidden: config.tenancy?.forbidden,
      });
      const summary = typeof schema.summary === 'string' ? plainSummary(schema.summary) : undefined;
      return { schema: { ...schema, operationId, ...(summary ? { summary } : {}) }, url };
    },
    transformObject: (documentObject) => completeDocument((documentObject as { openapiObject: never }).openapiObject, facts) as never,
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
