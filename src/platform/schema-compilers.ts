// Route schemas compiled once per process (docs/architecture.md, "Schemas"). Fastify compiles every
// route's validators (Ajv) and serializers (fast-json-stringify) again for each instance it builds:
// about 0.9 s of CPU for this app's routes. A server builds one app, but the test suite builds one
// per test file (hundreds per run), so each compiled function is kept here, keyed by what it was
// compiled from (the shared schemas, the compiler options and the route's own schema as JSON), and
// reused by every later app of the process. The functions are pure: Ajv's validators and
// fast-json-stringify's serializers keep no state between calls that another app could see.
import { createHash } from 'node:crypto';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

interface RouteSchema {
  schema?: unknown;
  method?: string;
  url?: string;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}

const buildValidatorFromPool = AjvCompiler();
const buildSerializerFromPool = SerializerSelector();
const compiled = new Map<string, unknown>();

const digest = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('base64');

function cached<F>(prefix: string, route: RouteSchema, compile: () => F): F {
  const key = `${prefix}|${route.httpPart ?? ''}|${route.httpStatus ?? ''}|${route.contentType ?? ''}|${JSON.stringify(route.schema)}`;
  let fn = compiled.get(key) as F | undefined;
  if (fn === undefined) {
    fn = compile();
    compiled.set(key, fn);
  }
  return fn;
}

type ValidatorFactory = typeof buildValidatorFromPool;
type SerializerFactory = typeof buildSerializerFromPool;

/** Fastify's `schemaController.compilersFactory`: its default compilers, behind the process-wide cache. */
export const schemaCompilers = {
  buildValidator: ((externalSchemas: unknown, options: { customOptions?: unknown; plugins?: unknown[] }) => {
    const compile = (buildValidatorFromPool as (...args: unknown[]) => (route: RouteSchema) => unknown)(externalSchemas, options);
    const prefix = `v${digest([externalSchemas, options.customOptions, (options.plugins ?? []).length])}`;
    return (route: RouteSchema) => cached(prefix, route, () => compile(route));
  }) as unknown as ValidatorFactory,
  buildSerializer: ((externalSchemas: unknown, options: unknown) => {
    const compile = (buildSerializerFromPool as (...args: unknown[]) => (route: RouteSchema) => unknown)(externalSchemas, options);
    const prefix = `s${digest([externalSchemas, options])}`;
    return (route: RouteSchema) => cached(prefix, route, () => compile(route));
  }) as unknown as SerializerFactory,
};
