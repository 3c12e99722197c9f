// Password rules of docs/users.md, "The users rules" and argon2id hashing. Shared by U4 (update),
// the bulk import and the onboarding page, so every entry point applies the exact same rules and
// messages.
import { hash, verify } from '@node-rs/argon2';
import type { FieldErrors } from '../../../platform/errors.js';

export const PASSWORD_MIN_LENGTH = 12;

// `Algorithm` is a `const enum` in the package's typings, which isolatedModules cannot inline:
// 2 is Algorithm.Argon2id. OWASP-recommended cost (19 MiB, 2 passes, 1 lane).
const ARGON2ID = 2;
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Laravel-style messages under `password`; `undefined` when the password is acceptable.
 * Checks stop at the first structural problem (missing / not a string) but report every rule
 * that a string breaks, so the user can fix all of them at once.
 */
export function validatePassword(password: unknown, confirmation: unknown): FieldErrors | undefined {
  if (password === undefined || password === null || password === '') {
    return { password: ['The password field is required.'] };
  }
  if (typeof password !== 'string') return { password: ['The password field must be a string.'] };
  const messages: string[] = [];
  // Count code points, not UTF-16 units, so an emoji is one character as the user sees it.
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    messages.push(`The password field must be at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (!/\p{Lu}/u.test(password)) messages.push('The password field must contain at least one uppercase letter.');
  if (!/[^\p{L}\p{N}]/u.test(password)) messages.push('The password field must contain at least one symbol.');
  if (confirmation !== password) messages.push('The password field confirmation does not match.');
  return messages.length > 0 ? { password: messages } : undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/** False for a wrong password and for a malformed or missing hash (never throws on bad input). */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
