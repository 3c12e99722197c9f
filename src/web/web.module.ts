// The company console (issue 7): server-rendered pages under /console plus the onboarding page,
// served by the same Fastify server inside one encapsulated plugin.
import type { FastifyInstance } from 'fastify';
import type { AppDeps, FeatureModule } from '../platform/deps.js';
import { authRoutes } from './auth.routes.js';
import { html } from './html.js';
import { plainPage } from './layout.js';
import { onboardingRoutes } from './onboarding.routes.js';
import { overviewRoutes } from './overview.routes.js';
import { payrollRoutes } from './payroll.routes.js';
import { securityRoutes } from './security.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { createWebContext, registerCookies, registerWebBasics, sendHtml } from './web.plugin.js';

async function webRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => {
    const ctx = createWebContext(deps);
    await registerCookies(scope);
    registerWebBasics(scope, ctx);
    await onboardingRoutes(scope, ctx);
    await scope.register(
      async (consoleScope) => {
        consoleScope.setNotFoundHandler((_request, reply) =>
          sendHtml(
            reply,
            plainPage({
              title: 'Not found',
              body: html`<p>There is no such page in the console.</p><p><a href="/console">Back to the console</a></p>`,
            }),
            404,
          ),
        );
        await authRoutes(consoleScope, ctx);
        await securityRoutes(consoleScope, ctx);
        await settingsRoutes(consoleScope, ctx);
        await overviewRoutes(consoleScope, ctx);
        await payrollRoutes(consoleScope, ctx);
      },
      { prefix: '/console' },
    );
  });
}

export const webModule: FeatureModule = {
  name: 'web',
  routes: webRoutes,
};
