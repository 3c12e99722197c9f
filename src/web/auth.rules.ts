// Where the console may send a browser after sign-in: the `next` rule of the sign-in page.

// `next` ends up in a Location header and in the browser's URL parser, so it is allowed only in a
// plain shape: path segments of unreserved characters under /console (no empty, `.` or `..`
// segment, no percent escapes that a browser would decode to `..`), and an optional query of
// unreserved characters and well-formed %XX escapes. Anything else (control or non-ASCII
// characters, backslashes, schemes, `//host`, fragments) falls back to /console.
const NEXT_PATH = /^\/console(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
const NEXT_QUERY = /^(?:[A-Za-z0-9._~=&+,:@-]|%[0-9A-Fa-f]{2})*$/;

/** Only plain paths inside the console are followed after sign-in (no open redirect, no bad header). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string') return '/console';
  const mark = next.indexOf('?');
  const path = mark < 0 ? next : next.slice(0, mark);
  const query = mark < 0 ? '' : next.slice(mark + 1);
  return NEXT_PATH.test(path) && NEXT_QUERY.test(query) ? next : '/console';
}
