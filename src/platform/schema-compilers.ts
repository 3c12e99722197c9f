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

/**
 * The JSON of a schema object, hashed once per object: Fastify asks for compilers ~140 times per
 * app (once per plugin context, each time with the same ~27 KB of shared schemas) and for ~800
 * route parts, and hashing the same objects' JSON on every ask cost ~100 ms of an app's build.
 * Route schemas are module constants that no app changes after Fastify's registration has shaped
 * them, so an object's JSON is read when it is first asked for.
 */
const fingerprints = new WeakMap<object, string>();
function fingerprint(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? '';
  let known = fingerprints.get(value);
  if (known === undefined) {
    known = createHash('sha256')
      .update(JSON.stringify(value) ?? '')
      .digest('base64');
    fingerprints.set(value, known);
  }
  return known;
}

/** The shared schemas by $id: a new container per ask, the same schema objects inside. */
const schemasFingerprint = (externalSchemas: unknown) =>
  Object.entries((externalSchemas ?? {}) as Record<string, unknown>)
    .map(([id, schema]) => `${id}=${fingerprint(schema)}`)
    .join(',');

function cached<F>(prefix: string, route: RouteSchema, compile: () => F): F {
  const key = `${prefix}|${route.httpPart ?? ''}|${route.httpStatus ?? ''}|${route.contentType ?? ''}|${fingerprint(route.schema)}`;
  let fn = compiled.get(key) as F | undefined;
  if (fn === undefined) {
    fn = compile();
    compiled.set(key, fn);
  }
  return fn;
}

type ValidatorFactory = typeof buildValidatorFromPool;
type SerializerFactory = typeof buildSerializerFromPool;
type Compile = (route: RouteSchema) => unknown;

/** The pool's compiler for these shared schemas, built at the first route that is not cached yet. */
function lazily(build: () => Compile): Compile {
  let compile: Compile | undefined;
  return (route) => {
    compile ??= build();
    return compile(route);
  };
}

/** Fastify's `schemaController.compilersFactory`: its default compilers, behind the process-wide cache. */
export const schemaCompilers = {
  buildValidator: ((externalSchemas: unknown, options: { customOptions?: unknown; plugins?: unknown[] }) => {
    const compile = lazily(() => (buildValidatorFromPool as (...args: unknown[]) => Compile)(externalSchemas, options));
    const prefix = `v${schemasFingerprint(externalSchemas)}|${JSON.stringify(options.customOptions) ?? ''}|${(options.plugins ?? []).length}`;
    return (route: RouteSchema) => cached(prefix, route, () => compile(route));
  }) as unknown as ValidatorFactory,
  buildSerializer: ((externalSchemas: unknown, options: unknown) => {
    const compile = lazily(() => (buildSerializerFromPool as (...args: unknown[]) => Compile)(externalSchemas, options));
    const prefix = `s${schemasFingerprint(externalSchemas)}|${JSON.stringify(options) ?? ''}`;
    return (route: RouteSchema) => cached(prefix, route, () => compile(route));
  }) as unknown as SerializerFactory,
};
