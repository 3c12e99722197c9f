// What create, update and the CSV import derive for a whole chunk of rows: company e-mails,
// random ids and tokens. Their batched reads are in users.lookup.repo.ts.
import crypto from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { internal } from '../../platform/errors.js';
import { takenEmailsByStem } from './users.lookup.repo.js';

export const ONBOARDING_TTL_MS = 7 * 24 * 3600 * 1000;

/** `first.last` from names: lower-case ASCII letters and digits, accents folded, dots between. */
export function emailLocalPart(firstName: string, lastName: string): string {
  const clean = (name: string) =>
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .join('.');
  const local = [clean(firstName), clean(lastName)].filter(Boolean).join('.');
  return local || 'user';
}

/** `ada.obi2@acme.test` → `ada.obi@acme.test`: what users_email_stem_idx indexes. */
export const stemOf = (email: string) => {
  const [local, domain] = email.split('@');
  return `${local.replace(/[0-9]+$/, '')}@${domain}`;
};

/**
 * Picks a free company e-mail for each request (`ada.obi@acme.test`, then `ada.obi2@…`), with one
 * query for the whole batch. Addresses are unique across ALL users (every company, deleted users
 * too). `own` is an address the row itself already holds (an update may keep it). Requests in the
 * same batch never get the same address. A concurrent writer can still take one first: the insert
 * or update then hits `users_email_key` and the caller retries.
 */
/** Company e-mails derived from one stem are taken in turns by concurrent batches (the locks of createLookup, users.lookup.repo.ts). */
export const EMAIL_STEM_BUCKETS = 1024;

/**
 * The lock keys of the company e-mails these people would get (`first.last@domain` without a
 * clash number, hashed into EMAIL_STEM_BUCKETS buckets), distinct and ascending: taken in this
 * order, before any write, by every batch, so no two batches wait for each other in a cycle.
 */
export function emailStemKeys(people: { firstName: string; lastName: string; domainName: string }[]): number[] {
  const keys = new Set<number>();
  for (const person of people) {
    const stem = stemOf(`${emailLocalPart(person.firstName, person.lastName)}@${person.domainName}`);
    keys.add(crypto.createHash('sha1').update(stem).digest().readUInt32BE(0) % EMAIL_STEM_BUCKETS);
  }
  return [...keys].sort((a, b) => a - b);
}

export async function deriveEmails(executor: Executor, requests: { local: string; domain: string; own?: string }[]): Promise<string[]> {
  if (requests.length === 0) return [];
  const stems = [...new Set(requests.map((r) => stemOf(`${r.local}@${r.domain}`)))];
  return freeEmails(await takenEmailsByStem(executor, stems), requests);
}

/** deriveEmails' choice, given the addresses already taken for the requests' stems (it adds its picks to `taken`). */
export function freeEmails(taken: Set<string>, requests: { local: string; domain: string; own?: string }[]): string[] {
  // Where the search for each address stopped, so many equal names stay linear, not quadratic.
  const next = new Map<string, number>();
  return requests.map((request) => {
    const key = `${request.local}@${request.domain}`;
    for (let n = next.get(key) ?? 1; ; n++) {
      const candidate = `${request.local}${n === 1 ? '' : n}@${request.domain}`;
      if (candidate === request.own || !taken.has(candidate)) {
        taken.add(candidate);
        next.set(key, n + 1);
        return candidate;
      }
    }
  });
}

/** `count` URL-safe random strings of `bytes` random bytes each, from one CSPRNG call. */
export function randomIds(count: number, bytes: number): string[] {
  const pool = crypto.randomBytes(count * bytes);
  return Array.from({ length: count }, (_, i) => pool.subarray(i * bytes, (i + 1) * bytes).toString('base64url'));
}

/** 43 URL-safe characters (256 random bits). */
export const newOnboardingToken = () => crypto.randomBytes(32).toString('base64url');

/**
 * Runs a batch in rounds: each round returns the rows it lost to a concurrent writer, and the next
 * round re-plans them against the winner's committed row. After four rounds the batch fails.
 */
export async function inRounds(count: number, round: (pending: number[]) => Promise<number[]>, failure: string): Promise<void> {
  let pending = Array.from({ length: count }, (_, index) => index);
  for (let n = 0; pending.length > 0 && n < 4; n++) pending = await round(pending);
  if (pending.length > 0) throw internal(failure);
}
