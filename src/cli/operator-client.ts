// The two ways the CLI reaches the operator use cases: over HTTP to a running server's /admin API
// (`--url`/PAYROLL_URL with ADMIN_TOKEN), or in-process through the same service on the configured
// database (DATA_DIR or DATABASE_URL). Both return the operator API's JSON bodies.
import type { Config } from '../config.js';
import { type CreateCompanyInput, createAdminService, type OutboxQuery, type UpdateCompanyInput } from '../modules/admin/index.js';
import { createCompanyVocabularyService } from '../modules/companies/index.js';
import { createStandaloneAdminsService, type InviteInput } from '../modules/users/index.js';
import { runAsActor } from '../platform/audit/index.js';
import { AuthCache } from '../platform/auth/authenticate.js';
import { DomainError } from '../platform/errors.js';
import { errorMessage, isRecord } from '../platform/guards.js';
import { createMailer } from '../platform/mail/outbox.js';
import { openConfiguredDatabase, prepareDatabase } from '../runtime.js';

export class CliError extends Error {}

export interface OperatorClient {
  createCompany(input: CreateCompanyInput): Promise<unknown>;
  updateCompany(id: number, input: UpdateCompanyInput): Promise<unknown>;
  generateToken(id: number, input: { scopes?: string[] }): Promise<unknown>;
  revokeToken(id: number): Promise<unknown>;
  listOutbox(query: OutboxQuery): Promise<unknown>;
  inviteAdmin(companyId: number, input: InviteInput): Promise<unknown>;
  close(): Promise<void>;
}

export function httpClient(baseUrl: string, adminToken: string): OperatorClient {
  const base = baseUrl.replace(/\/+$/, '');
  async function request(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new CliError(`cannot reach ${base}: ${errorMessage(error)}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new CliError(`${method} ${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
    }
    if (!response.ok) {
      const message = isRecord(json) ? json.error : undefined;
      const hint =
        response.status === 404 && path.startsWith('/admin') && message === 'Not found.' ? ' (is ADMIN_TOKEN set on the server?)' : '';
      throw new CliError(`HTTP ${response.status}: ${typeof message === 'string' ? message : text}${hint}`);
    }
    return json;
  }
  return {
    createCompany: (input) => request('POST', '/admin/companies', input),
    updateCompany: (id, input) => request('PATCH', `/admin/companies/${id}`, input),
    generateToken: (id, input) => request('POST', `/admin/companies/${id}/token`, input),
    revokeToken: (id) => request('DELETE', `/admin/companies/${id}/token`),
    listOutbox: (query) => {
      const params = new URLSearchParams();
      if (query.to) params.set('to', query.to);
      if (query.limit) params.set('limit', String(query.limit));
      const qs = params.toString();
      return request('GET', `/admin/outbox${qs ? `?${qs}` : ''}`);
    },
    // The operator API has no route for it: the first administrator is made on the database itself.
    inviteAdmin: async () => {
      throw new CliError(
        'admin invite works on the database directly: run it without --url/PAYROLL_URL, with DATABASE_URL (or DATA_DIR) set',
      );
    },
    close: async () => {},
  };
}

/** The CLI's direct changes are the operator's (docs/audit.md, "Who"). */
const CLI_OPERATOR = { type: 'operator' as const, id: 'cli', email: null };

/** Service errors become CLI errors with every field message. */
async function explain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await runAsActor(CLI_OPERATOR, work);
  } catch (error) {
    if (error instanceof DomainError) {
      const details = error.fields ? Object.values(error.fields).flat() : [error.message];
      throw new CliError(details.join('\n'));
    }
    throw error;
  }
}

export async function directClient(config: Config): Promise<OperatorClient> {
  const opened = await openConfiguredDatabase(config);
  try {
    await prepareDatabase(opened.database);
  } catch (error) {
    await opened.close();
    throw error;
  }
  // A server running elsewhere on the same PostgreSQL sees changes within 1 s: they move the
  // authentication generation (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s").
  const authCache = new AuthCache();
  const vocabulary = createCompanyVocabularyService({ db: opened.database.db, authCache });
  const service = createAdminService({ db: opened.database.db, authCache, config, vocabulary });
  return {
    createCompany: (input) => explain(() => service.createCompany(input)),
    updateCompany: (id, input) => explain(() => service.updateCompany(id, input)),
    generateToken: (id, input) => explain(() => service.generateToken(id, input)),
    revokeToken: (id) => explain(() => service.revokeToken(id)),
    listOutbox: (query) => explain(() => service.listOutbox(query)),
    inviteAdmin: async (companyId, input) => {
      const mailer = createMailer({ perCompanyPerHour: config.mailPerCompanyPerHour });
      const admins = createStandaloneAdminsService({ db: opened.database.db, mailer, config });
      // The operator acts for the company: any role, and the e-mail goes to the outbox as well.
      const invited = await explain(() => admins.invite(companyId, 'operator', input, true));
      return {
        message: 'Administrator invited. Give them the onboarding link (valid 7 days, once); the invitation e-mail is in the outbox.',
        user: invited.user,
        role: invited.role,
        onboarding_link: invited.link,
      };
    },
    close: () => opened.close(),
  };
}
