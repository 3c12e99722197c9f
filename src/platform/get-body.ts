// U1 takes `company_id` "in the body" of a GET. Fastify never parses GET bodies, so a JSON body
// on GET is read here (bounded by the same 1 MiB limit) and becomes request.body.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

const LIMIT = 1024 * 1024;

export function registerGetJsonBody(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method !== 'GET') return payload;
    const type = request.headers['content-type'] ?? '';
    const length = Number(request.headers['content-length'] ?? 0);
    if (!type.includes('application/json') || !(length > 0)) return payload;
    if (length > LIMIT) {
      // Same answer as an oversized POST body: the error handler turns this into the 413 shape.
      throw Object.assign(new Error('Request body too large.'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.from(chunk));
    try {
      request.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw badRequest('Malformed JSON body.');
    }
    return payload;
  });
}
