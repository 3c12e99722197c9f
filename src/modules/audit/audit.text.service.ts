// GET /api/audit-events's page as the JSON text it sends (docs/audit.md, "Reading the log"): the
// page's places first (ids, xids and seals' hashes, from the chain index), then each event's text
// from what this instance keeps of sealed events (below). The few that are not kept (the newest, not
// sealed yet) are read by id; a page mostly unknown (one nobody has read here yet) is read
// whole, as `list` reads it: one range scan costs less than an index lookup per event (0.22 ms
// against 0.35 for 50 ids, docs/benchmarks.md). The text is what the route's serializer writes for
// `list`'s object (audit.text.test.ts holds them equal, byte for byte).
import type { Db } from '../../db/client.js';
import { createKeptTexts, type KeptTextLimits } from '../../platform/kept-texts.js';
import { type AuditEventRow, type AuditFilters, auditReadRepo, type ChainPosition } from './audit.repo.js';
import { serializeAuditEvent } from './audit.serializer.js';

// The texts of sealed events, kept by each instance (platform/kept-texts.ts) with their seal's hash.
// A sealed event is final: audit_events and audit_seals refuse UPDATE and DELETE, and a seal is
// written once. A kept text is still used only while its hash is the one the page's places read
// from audit_seals: the hash covers every field the text shows (docs/audit.md, "Tamper evidence"),
// so a kept text is the event its seal vouches for, even after a failover or a restore that gave
// its id to another event (with another hash). An unsealed event (no hash yet) is never kept. The
// places come from a statement scoped to the company, so a kept text goes back only to the company
// that wrote the event.
/** About 200 pages of 50: the pages an auditor or the console re-reads, a few MB per instance. */
export const EVENT_TEXT_LIMITS: KeptTextLimits = { entries: 10_000, chars: 8 * 1024 * 1024 };

export function createAuditPageText(db: Db, encodeCursor: (at: ChainPosition) => string) {
  const texts = createKeptTexts<number, { hash: string; text: string }>(EVENT_TEXT_LIMITS, (event) => event.text.length);

  /** The event's text if kept under this hash (a sealed event's, as the page read it). */
  const keptText = (id: number, hash: string | null) => {
    const event = hash === null ? undefined : texts.get(id);
    return event?.hash === hash ? event.text : undefined;
  };

  /** The event's text: kept, or written now (and kept once sealed, when it can no longer change). */
  const textOf = (row: AuditEventRow) => {
    const kept = keptText(row.id, row.hash);
    if (kept !== undefined) return kept;
    const text = JSON.stringify(serializeAuditEvent(row));
    if (row.hash !== null) texts.keep(row.id, { hash: row.hash, text });
    return text;
  };

  const answer = (events: string[], last: ChainPosition | undefined) =>
    `{"data":[${events.join(',')}],"next_cursor":${last ? `"${encodeCursor(last)}"` : 'null'}}`;

  /** Up to `limit` events newest first, with the cursor of the next page (null on the last). */
  return async function pageText(companyId: number, filters: AuditFilters, limit: number): Promise<string> {
    const places = await auditReadRepo.places(db, companyId, filters, limit + 1);
    const page = places.slice(0, limit);
    const more = places.length > limit ? page[page.length - 1] : undefined;
    const kept = page.map((place) => keptText(place.id, place.hash));
    const missing = page.filter((_, i) => kept[i] === undefined).map((place) => place.id);
    if (missing.length === 0) return answer(kept as string[], more);
    if (missing.length * 2 > page.length) {
      // Read whole, the page may have gained a newer event since its places were read: its rows decide.
      const rows = await auditReadRepo.page(db, companyId, filters, limit + 1);
      return answer(rows.slice(0, limit).map(textOf), rows.length > limit ? rows[limit - 1] : undefined);
    }
    const read = new Map<number, string>();
    for (const row of await auditReadRepo.byIds(db, companyId, missing)) read.set(row.id, textOf(row));
    // An event gone between the two reads (only the retention procedure deletes events) is left out.
    return answer(
      page.flatMap((place, i) => kept[i] ?? read.get(place.id) ?? []),
      more,
    );
  };
}
