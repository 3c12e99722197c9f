// A console session for the bench, made as a person makes one: an administrator given a password
// (hashed by the users module's own rule), then GET and POST /console/login through the real form
// (its CSRF field, the cookies it sets). The scenarios then time console pages with that cookie.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';
import { users } from '../../src/db/schema/index.js';
import { hashPassword } from '../../src/modules/users/index.js';

export const CONSOLE_PASSWORD = 'Bench-Console-Pass-42!';

/** Gives the company's user `email` the bench's console password. */
export async function setConsolePassword(db: Executor, companyId: number, email: string): Promise<void> {
  const passwordHash = await hashPassword(CONSOLE_PASSWORD);
  const updated = await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.companyId, companyId), eq(users.email, email)))
    .returning({ id: users.id });
  if (updated.length !== 1) throw new Error(`no user ${email} in company ${companyId}`);
}

/** `name=value; ...` of the cookies set by `res`, over those of `jar`. */
function withCookies(jar: Map<string, string>, res: Response): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    jar.set(pair.slice(0, index), pair.slice(index + 1));
  }
  return jar;
}

/** Signs `email` in through the login form; returns the Cookie header of the session. */
export async function signInConsole(baseUrl: string, email: string): Promise<string> {
  const login = await fetch(`${baseUrl}/console/login`);
  const page = await login.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (login.status !== 200 || !csrf) throw new Error(`GET /console/login: ${login.status}, no _csrf field`);
  const jar = withCookies(new Map(), login);
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const res = await fetch(`${baseUrl}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    // The console accepts forms from its own origin only (docs/security.md).
    headers: { cookie: cookie(), origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email, password: CONSOLE_PASSWORD }).toString(),
  });
  const body = await res.text();
  if (res.status !== 303) throw new Error(`POST /console/login as ${email}: ${res.status} ${body.slice(0, 300)}`);
  withCookies(jar, res);
  return cookie();
}
