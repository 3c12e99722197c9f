// Narrowing functions for values that arrive untyped (request bodies, parsed JSON, caught errors):
// each checks at run time what the type then promises, so callers need no `as`.

/** A plain object's own fields (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One of a fixed list of strings (`as const` vocabularies). */
export function isOneOf<T extends string>(allowed: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && allowed.some((item) => item === value);
}

/** A key of an object literal such as a column map (own keys only, never `toString`). */
export function isKeyOf<T extends object>(object: T, key: PropertyKey): key is keyof T {
  return Object.hasOwn(object, key);
}

/** A Node system error (`ENOENT`, `EEXIST`…), as thrown by fs and net. */
export function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}

/** The message of anything thrown: an Error's message, otherwise its text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
