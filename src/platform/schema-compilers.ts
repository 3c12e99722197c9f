// Route schemas compiled once per process (docs/architecture.md, "Schemas"). Fastify compiles every
// route's validators (Ajv) and serializers (fast-json-stringify) again for each instance it builds:
// about 0.9 s of CPU for this app's routes. A server builds one app, but the test suite builds one
// per test file (hundreds per run), so each compiled function is kept here, keyed by what it was
// compiled from (the shared schemas, the compiler options and the route's own schema as JSON), and
// reused by every later app of the process. The functions are pure: Ajv's validators and
// fast-json-stringify's serializers keep no state between calls that another app could see. Each
// is compiled at its first call (`lazy`); a test compiles them all (compileEveryRouteSchema).
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

type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** Every route part's function, compiled or not yet (compileEveryRouteSchema). */
const pending = new Set<() => Compiled>();

/**
 * A route part's function compiled at its first call, not when the app is built: a server then
 * starts without compiling the ~800 route parts (~0.4 s of CPU, about a sixth of a start), and a
 * route's first request pays its own few milliseconds. Fastify reads `schemaEnv` (Ajv's, before
 * calling) and `errors` (after a failed validation) from the function it was given, so both are
 * the compiled function's.
 */
function lazy(compile: () => Compiled): Compiled {
  let fn: Compiled | undefined;
  const get = () => {
    if (fn === undefined) {
      fn = compile();
      pending.delete(get);
    }
    return fn;
  };
  pending.add(get);
  // Two parameters, no rest array: Ajv's validators take (data, context), serializers (payload).
  const call = function (this: unknown, data: unknown, context: unknown) {
    return (fn ?? get()).call(this, data, context);
  } as Compiled;
  Object.defineProperty(call, 'errors', { get: () => fn?.errors });
  Object.defineProperty(call, 'schemaEnv', { get: () => get().schemaEnv });
  return call;
}

/**
 * Compiles every route part not compiled yet (of every app built in this process); how many. A
 * schema that does not compile fails here, in a test, rather than at a route's first request.
 */
export function compileEveryRouteSchema(): number {
  const count = pending.size;
  for (const get of [...pending]) get();
  return count;
}

function cached<F>(prefix: string, route: RouteSchema, compile: () => F): F {
  const key = `${prefix}|${route.httpPart ?? ''}|${route.httpStatus ?? ''}|${route.contentType ?? ''}|${fingerprint(route.schema)}`;
  let fn = compiled.get(key) as F | undefined;
  if (fn === undefined) {
    fn = lazy(compile as () => Compiled) as F;
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
