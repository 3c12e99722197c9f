// For the tests that hold a route's JSON text (src/platform/json-text.ts) byte for byte equal to what
// the route's own serializer writes: that serializer, compiled as Fastify compiles it (the route's
// 200 schema with the shared schemas it references), and a string with every kind of character JSON
// must escape or that a writer could get wrong.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { as, type Caller } from './http.js';

/** The 200 serializer of `GET url` answering `schema`, with `shared` as the schemas it references by `$id`. */
export function routeSerializer(shared: Record<string, unknown>, schema: unknown, url: string): (data: unknown) => string {
  const select = SerializerSelector() as (...args: unknown[]) => (route: object) => (data: unknown) => string;
  return select(shared, {})({ schema, method: 'GET', url, httpStatus: '200' });
}

/** Quotes, backslashes, control characters, U+2028, an astral character, a Yoruba letter and `</script>`. */
export const WEIRD = 'quote " backslash \\ newline \n tab \t \u0001 \u001f \u007f \u2028 😀 Ọ </script>';

/**
 * `GET path?query` as `caller`, held byte for byte equal to `expected` (what the route's serializer
 * writes for the same query, given the query as the strings a client sends), with JSON's content
 * type; the parsed body.
 */
export async function answeredAsSerialized<T>(
  app: App,
  caller: Caller,
  path: string,
  query: object,
  expected: (raw: Record<string, string>) => Promise<string>,
): Promise<T> {
  const raw = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await as(app, caller).get(`${path}?${new URLSearchParams(raw)}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.body).toBe(await expected(raw));
  return JSON.parse(res.body) as T;
}
