// P1's page (unfiltered, or of one run) as the JSON texts of its paystubs, each kept by the instance.
// With the texts kept in the database (paystubs.listed-text.repo.ts) PostgreSQL still joined every
// paystub's kept text to its user's, written on every read: P1 of one run stayed near 0.22-0.24 of the
// bare-Fastify ceiling, where the lists whose texts the instance keeps reached 0.31-0.44
// (docs/benchmarks.md, "P1's texts kept by the instance"). So each instance keeps the two texts a
// listed paystub is made of beside the others (platform/kept-texts.ts): the paystub's (its head and
// contribution) under its version, its user's under the user's. A page reads its places first (ids
// and versions, a small statement); the paystubs whose text or user's text is not kept at the version
// read have their parts read (and kept), and the page is answered from both. A page the instance has
// not read yet is read whole in one statement, as before.
//
// A user's text depends on the user's row, their type's row and whether they are active today, all
// three in the version (paystubs.listed-text.repo.ts); a paystub's on its row, items and records, all
// in its version through listed_stamp. A text is used only under the id and version the company's own
// page reads, so it goes back only to that company. A paystub that repays a loan is never kept (its
// balance after the repayment depends on the loan's other paystubs): its parts are read every time.
import type { Executor } from '../../db/client.js';
import { createKeptTexts, type KeptTextLimits } from '../../platform/kept-texts.js';
import { listedText } from './paystubs.json.repo.js';
import { type ListedParts, type PageWindow, paystubsListedTextRepo } from './paystubs.listed-text.repo.js';

/** Paystubs' texts kept per instance: about 1.5 KB each, items and records included. */
export const PAYSTUB_TEXT_LIMITS: KeptTextLimits = { entries: 10_000, chars: 16 * 1024 * 1024 };
/** Their users' texts: about 450 bytes each. */
export const PAYSTUB_USER_TEXT_LIMITS: KeptTextLimits = { entries: 10_000, chars: 8 * 1024 * 1024 };

/** Pages this instance has read (their company, run, offset and size), for which it reads places first. */
export const PAYSTUB_PAGES_READ_LIMITS: KeptTextLimits = { entries: 10_000, chars: 10_000 };

type KeptPaystub = { version: string; head: string; contribution: string };
type KeptUser = { version: string; text: string };

/** The instance's kept texts of listed paystubs, and the page read through them (on `executor`). */
export function createPaystubTexts() {
  const paystubs = createKeptTexts<number, KeptPaystub>(PAYSTUB_TEXT_LIMITS, (kept) => kept.head.length + kept.contribution.length);
  const users = createKeptTexts<number, KeptUser>(PAYSTUB_USER_TEXT_LIMITS, (kept) => kept.text.length);
  const pagesRead = createKeptTexts<string, true>(PAYSTUB_PAGES_READ_LIMITS, () => 1);

  /** Keeps what may be kept of `part`, and gives its text. */
  function keptText(part: ListedParts): string {
    if (part.keepable) paystubs.keep(part.id, { version: part.version, head: part.head, contribution: part.contribution });
    if (part.userVersion !== null) users.keep(part.userId, { version: part.userVersion, text: part.user });
    return listedText(part.head, part.user, part.contribution);
  }

  /** The page's paystubs as text, newest first, and the page's total (paystubsListedTextRepo.places). */
  return async function paystubTexts(executor: Executor, companyId: number, page: PageWindow) {
    // A page this instance has not read yet is read whole, in one statement: its places first would
    // be a second statement for texts it cannot have kept (unless another page shared them).
    const pageKey = JSON.stringify([companyId, page.transactionId ?? null, page.offset, page.limit]);
    if (pagesRead.get(pageKey) === undefined) {
      const { parts, total } = await paystubsListedTextRepo.pageParts(executor, companyId, page);
      pagesRead.keep(pageKey, true);
      return { paystubs: parts.map(keptText), total };
    }
    const { places, total } = await paystubsListedTextRepo.places(executor, companyId, page);
    const texts = new Map<number, string>();
    const missing: number[] = [];
    for (const place of places) {
      const paystub = paystubs.get(place.id);
      const user = place.userVersion === null ? 'null' : users.get(place.userId);
      const userText = typeof user === 'string' ? user : user?.version === place.userVersion ? user.text : undefined;
      if (paystub?.version === place.version && userText !== undefined)
        texts.set(place.id, listedText(paystub.head, userText, paystub.contribution));
      else missing.push(place.id);
    }
    if (missing.length > 0)
      for (const part of await paystubsListedTextRepo.parts(executor, companyId, missing)) texts.set(part.id, keptText(part));
    // A paystub gone between the two reads (none is ever deleted) would be left out of the page.
    const listed: string[] = [];
    for (const place of places) {
      const text = texts.get(place.id);
      if (text !== undefined) listed.push(text);
    }
    return { paystubs: listed, total };
  };
}
