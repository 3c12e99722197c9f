// Recognising a unique-index violation (SQLSTATE 23505) on both drivers. Drizzle wraps the driver
// error, so the cause chain is walked. Used to turn a lost race into a clean 422/409 instead of a 500.
import { isRecord } from './guards.js';

/** The name of the violated unique constraint or index, or undefined when it is another error. */
export function uniqueViolation(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; isRecord(current) && depth < 5; depth++) {
    if (current.code === '23505') {
      if (typeof current.constraint === 'string') return current.constraint;
      const match = typeof current.message === 'string' ? /unique constraint "([^"]+)"/.exec(current.message) : null;
      return match ? match[1] : 'unknown';
    }
    current = current.cause;
  }
  return undefined;
}
