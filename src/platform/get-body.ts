// U1 takes `company_id` "in the body" of a GET. Fastify never parses GET bodies, so a JSON body
// on GET is read here (bounded by the same 1 MiB limit) and becomes request.body.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

const LIMIT = 1024 * 1024;

export function registerGetJsonBody(app: FastifyInstance): void {
  // Callback-style, so that the requests without a JSON body (nearly all) pass without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.method !== 'GET') return done(null, payload);
    const type = request.headers['content-type'] ?? '';
    const length = Number(request.headers['content-length'] ?? 0);
    if (!type.includes('application/json') || !(length > 0)) return done(null, payload);
    if (length > LIMIT) {
      // Same answer as an oversized POST body: the error handler turns this into the 413 shape.
      return done(Object.assign(new Error('Request body too large.'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }));
    }
    readJson(payload).then((body) => {
      request.body = body;
      done(null, payload);
    }, done);
  });
}

async function readJson(payload: AsyncIterable<unknown>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of payload) chunks.push(Buffer.from(chunk as Buffer));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON body.');
  }
}
