// Console test helpers: administrators with a password, and signing in through the real form.
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { users } from '../../src/db/schema/index.js';
import { hashPassword } from '../../src/modules/users/index.js';
import { createUsers, type TestUserInput } from './factories.js';

export const ADMIN_PASSWORD = 'Correct-Horse-42!';

let cachedHash: Promise<string> | undefined;

/** A user with a password (argon2id, hashed once per file); roles default to ["admin"]. */
export async function createAdmin(db: Executor, companyId: number, input: TestUserInput & { password?: string } = {}) {
  const [user] = await createUsers(db, companyId, [{ roles: ['admin'], ...input }]);
  if (!input.password && !cachedHash) cachedHash = hashPassword(ADMIN_PASSWORD);
  const passwordHash = input.password ? await hashPassword(input.password) : await (cachedHash as Promise<string>);
  await db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  return { ...user, passwordHash };
}

/** Cookies of a response as a `name=value; ...` header, merged over earlier ones. */
export function mergeCookies(previous: string, setCookie: string | string[] | undefined): string {
  const jar = new Map(previous ? previous.split('; ').map((pair) => pair.split('=', 2) as [string, string]) : []);
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index);
    const value = pair.slice(index + 1);
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** The value of the first hidden `_csrf` field of a page. */
export function csrfOf(body: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(body);
  if (!match) throw new Error('no _csrf field on the page');
  return match[1];
}

export interface WebClient {
  cookie: string;
  csrf: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, form: Record<string, string | string[]>): Promise<LightMyRequestResponse>;
}

export function formBody(form: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) for (const item of [value].flat()) params.append(key, item);
  return params.toString();
}

/** Signs in through GET/POST /console/login and returns a client that keeps the cookies. */
export async function signIn(app: App, email: string, password = ADMIN_PASSWORD): Promise<WebClient> {
  const login = await app.inject({ method: 'GET', url: '/console/login' });
  let cookie = mergeCookies('', login.headers['set-cookie']);
  const res = await app.inject({
    method: 'POST',
    url: '/console/login',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody({ _csrf: csrfOf(login.body), email, password }),
  });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
  cookie = mergeCookies(cookie, res.headers['set-cookie']);
  const home = await app.inject({ method: 'GET', url: '/console/security/api', headers: { cookie } });
  const client: WebClient = {
    cookie,
    csrf: csrfOf(home.body),
    get: (url) => app.inject({ method: 'GET', url, headers: { cookie: client.cookie } }),
    post: (url, form) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: client.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: formBody({ _csrf: client.csrf, ...form }),
      }),
  };
  return client;
}
