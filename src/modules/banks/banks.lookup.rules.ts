// Finding a bank by its code or by what someone typed as its name. Pure, over banks.data.ts.
//
// Names are compared after normalising: case, punctuation and spacing are ignored, "&" is "and",
// and the words that every bank name may or may not carry ("bank", "plc", "limited", "nigeria",
// "microfinance", "mfb", "merchant", ...) are dropped. A name is known when it is the name or an
// alias of exactly one bank as written (case and punctuation aside), or else when, so normalised, it
// equals the normalised name or an alias of exactly ONE bank; one that fits several banks (a bare
// "Access": Access Bank or the old Diamond accounts) or none gets no code (docs/banks.md).
import { BANK_ENTRIES, type BankEntry } from './banks.data.js';

export interface Bank {
  name: string;
  code: string;
  slug: string;
}

const NOISE = new Set([
  'bank',
  'banks',
  'plc',
  'ltd',
  'limited',
  'nigeria',
  'nig',
  'ng',
  'the',
  'of',
  'for',
  'microfinance',
  'mfb',
  'merchant',
]);

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');

/** A name as written, without case and punctuation ("ACCESS BANK." → "access bank"). */
const exactKey = (text: string) => words(text).join(' ');

/** The words of a name that tell banks apart ("Guaranty Trust Bank Plc." → "guaranty trust"). */
export const nameKey = (text: string): string =>
  words(text)
    .filter((word) => !NOISE.has(word))
    .join(' ');

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Every bank of the data file, by name (what GET /api/banks lists). */
export const BANKS: readonly Bank[] = [...BANK_ENTRIES]
  .sort((a, b) => a.name.localeCompare(b.name, 'en'))
  .map((entry) => ({ name: entry.name, code: entry.code, slug: slugOf(entry.name) }));

const byCode = new Map<string, BankEntry>();
for (const entry of BANK_ENTRIES) {
  byCode.set(entry.code, entry);
  if (entry.paystack) byCode.set(entry.paystack, entry);
}

/** Codes by key: the names and aliases as written, then by their distinguishing words. */
function index(key: (text: string) => string): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const entry of BANK_ENTRIES) {
    for (const text of [entry.name, ...(entry.aliases ?? [])]) {
      const k = key(text);
      if (k === '') continue;
      map.set(k, (map.get(k) ?? new Set<string>()).add(entry.code));
    }
  }
  return map;
}
const byExact = index(exactKey);
const byKey = index(nameKey);

/** The bank with this code (ours, or the one Paystack uses for it); undefined when unknown. */
export function bankByCode(code: string): Bank | undefined {
  const entry = byCode.get(code.trim());
  return entry ? (BANKS.find((bank) => bank.code === entry.code) as Bank) : undefined;
}

/** The code Paystack's API takes for a bank of ours (the same code unless the data file says otherwise). */
export function paystackBankCode(code: string): string {
  return byCode.get(code)?.paystack ?? code;
}

/** The code of the one bank `name` names; undefined when it names none or several. */
export function bankCodeForName(name: string): string | undefined {
  const exact = byExact.get(exactKey(name));
  if (exact?.size === 1) return [...exact][0];
  const codes = byKey.get(nameKey(name));
  return codes?.size === 1 ? [...codes][0] : undefined;
}
