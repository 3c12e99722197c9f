// The two ways the CLI reaches the operator use cases: over HTTP to a running server's /admin API
// (`--url`/PAYROLL_URL with ADMIN_TOKEN), here, or in-process through the same service on the
// configured database (DATA_DIR or DATABASE_URL), in operator-direct.ts. Both return the operator
// API's JSON bodies. This file imports no module of the app, only types: a command over HTTP starts
// without loading the app and the database driver (main.ts).
import type { CreateCompanyInput, OutboxQuery, UpdateCompanyInput } from '../modules/admin/index.js';
import type { InviteInput } from '../modules/users/index.js';
import { errorMessage, isRecord } from '../platform/guards.js';

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
