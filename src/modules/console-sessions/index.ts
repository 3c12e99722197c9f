// Console sessions: administrators' sign-in (throttled, with the per-account lock and its unlock
// link), the session cookie's row and its CSRF secret (docs/console.md). The console (src/web)
// reads them through `app.services.consoleSessions`; it has no routes of its own here: the sign-in
// pages are the console's.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createSessionService } from './console-sessions.service.js';
import { createPasswordResetService } from './password-reset.service.js';

export function createConsoleSessionsModule(deps: AppDeps) {
  const services = { sessions: createSessionService(deps), passwordResets: createPasswordResetService(deps) };
  return {
    services,
    routes: () => {},
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type ConsoleSessionsServices = ReturnType<typeof createConsoleSessionsModule>['services'];
export type { LinkRedemption } from './account-lock.service.js';
export type { SessionRow } from './console-sessions.repo.js';
export {
  randomSecret,
  SESSION_MAX_SECONDS,
  type SessionService,
  SIGN_IN_MESSAGES,
  type SignInResult,
  safeEqual,
} from './console-sessions.service.js';
export { RESET_LIMITS, RESET_LINK_SECONDS, type ResetState } from './password-reset.service.js';
