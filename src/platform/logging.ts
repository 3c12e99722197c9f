// What a request looks like in the logs. Secrets never reach them: the Authorization and Cookie
// headers are not serialized at all, and secrets that clients put in URLs (a token in the query
// string, the one-time onboarding link) are replaced before the line is written.
import type { FastifyRequest } from 'fastify';

const SECRET_PARAMS = /^(token|access_token|api_key|apikey|key|password|password_confirmation|secret|signature|code)$/i;
const SECRET_PATHS: RegExp[] = [/^(\/onboarding\/)[^/?#]+/];

export function redactUrl(url: string): string {
  let [path, query] = [url, ''];
  const at = url.indexOf('?');
  if (at >= 0) [path, query] = [url.slice(0, at), url.slice(at + 1)];
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, '$1[redacted]');
  if (!query) return path;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq >= 0 ? part.slice(0, eq) : part;
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {}
    return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : part;
  });
  return `${path}?${parts.join('&')}`;
}

export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}
