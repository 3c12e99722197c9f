// Answers whose JSON text is already written: U1 and P1 pages, where PostgreSQL writes each user or
// paystub text, and the audit log's pages, of texts kept per sealed event.
// Fastify sends a string with a JSON content type as it is: no serializer runs, so the route's
// response schema documents the answer (OpenAPI) but does not shape it. Whoever writes the text
// holds it equal to what the schema's serializer would write (users.json.test.ts for U1, paystubs.json.test.ts for P1,
// audit.text.test.ts for the audit log).
import type { FastifyReply } from 'fastify';

/** Sends `text`, a complete JSON document, as the 200 answer. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/** An answer that is either such a text (sent as it is) or an object for the route's serializer (returned). */
export function sendJsonTextOr<T>(reply: FastifyReply, answer: string | T): FastifyReply | T {
  return typeof answer === 'string' ? sendJsonText(reply, answer) : answer;
}
