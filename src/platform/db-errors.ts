// Recognising a unique-index violation (SQLSTATE 23505) on both drivers. Drizzle wraps the driver
// error, so the cause chain is walked. Used to turn a lost race into a clean 422/409 instead of a 500.

/** The name of the violated unique constraint or index, or undefined when it is another error. */
export function uniqueViolation(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === '23505') {
      if (typeof candidate.constraint === 'string') return candidate.constraint;
      const match = typeof candidate.message === 'string' ? /unique constraint "([^"]+)"/.exec(candidate.message) : null;
      return match ? match[1] : 'unknown';
    }
    current = candidate.cause;
  }
  return undefined;
}
