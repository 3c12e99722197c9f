// Reading the audit log (docs/audit.md, "Reading the log"): filters checked field by field, an
// opaque cursor over the chain order (xid, id), and the CSV export read in pages so that a log of a million
// events streams in constant memory.
import type { Db } from '../../db/client.js';
import { type BrokenLink, countChains, findBrokenLinks, sealAuditEvents } from '../../platform/audit/index.js';
import { csvText } from '../../platform/csv.js';
import { addFieldError, type FieldErrors, invalid } from '../../platform/errors.js';
import { type AuditFilters, auditReadRepo, type ChainPosition } from './audit.repo.js';
import { AUDIT_CSV_HEADER, auditCsvRecord, serializeAuditEvent } from './audit.serializer.js';
import { createAuditPageText } from './audit.text.service.js';

export const AUDIT_FORBIDDEN = 'You are not allowed to read the audit log of this company.';
export const ACTOR_TYPES = ['token', 'console_user', 'operator', 'system', 'employee'] as const;
export const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;
const EXPORT_PAGE = 1000;
const ACTION = /^[a-z_]+(\.[a-z_]+)*(\.\*)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface AuditQuery {
  actor_type?: string;
  actor_id?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

/** A date (`2026-11-26`: the whole day for `to`) or an ISO timestamp. */
function readTime(text: string, field: 'from' | 'to', errors: FieldErrors): Date | undefined {
  const at = new Date(DAY.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    addFieldError(errors, field, `The ${field} field must be a date (YYYY-MM-DD) or an ISO 8601 time.`);
    return undefined;
  }
  if (field === 'to' && DAY.test(text)) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

export const encodeCursor = (at: ChainPosition) => Buffer.from(`at:${at.xid}:${at.id}`).toString('base64url');
function decodeCursor(cursor: string): ChainPosition | undefined {
  const match = /^at:(\d{1,19}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match && BigInt(match[1]) < 2n ** 63n ? { xid: match[1], id: Number(match[2]) } : undefined;
}

/** The filters of a query, or a 422 naming every bad field. */
export function readFilters(query: AuditQuery): AuditFilters {
  const errors: FieldErrors = {};
  const filters: AuditFilters = {};
  if (query.actor_type !== undefined) {
    if ((ACTOR_TYPES as readonly string[]).includes(query.actor_type)) filters.actorType = query.actor_type;
    else addFieldError(errors, 'actor_type', `The actor_type must be one of ${ACTOR_TYPES.join(', ')}.`);
  }
  if (query.actor_id !== undefined) filters.actorId = query.actor_id;
  if (query.action !== undefined) {
    if (!ACTION.test(query.action))
      addFieldError(errors, 'action', 'The action must be an action name such as user.updated, or a prefix such as user.*.');
    else filters.action = query.action.endsWith('.*') ? { prefix: query.action.slice(0, -2) } : { exact: query.action };
  }
  if (query.target_type !== undefined) filters.targetType = query.target_type;
  if (query.target_id !== undefined) filters.targetId = query.target_id;
  if (query.from !== undefined) filters.from = readTime(query.from, 'from', errors);
  if (query.to !== undefined) filters.to = readTime(query.to, 'to', errors);
  if (query.cursor !== undefined) {
    filters.before = decodeCursor(query.cursor);
    if (filters.before === undefined) addFieldError(errors, 'cursor', 'The cursor is not one this API gave.');
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return filters;
}

export interface VerifyReport {
  ok: boolean;
  events: number;
  companies: number;
  /** Events sealed by this verification before it checked (the sealer had not reached them yet). */
  sealed: number;
  /** Events still waiting for a transaction older than theirs to end: not covered yet. */
  unsealed: number;
  /** Each broken chain's first bad link. */
  broken: BrokenLink[];
}

export function createAuditService({ db }: { db: Db }) {
  const pageText = createAuditPageText(db, encodeCursor);

  return {
    /** `payroll audit verify`: seals what the sealer has not reached, then recomputes every chain (or one company's). */
    async verify(companyId?: number): Promise<VerifyReport> {
      const sealed = await sealAuditEvents(db);
      const [broken, counted] = [await findBrokenLinks(db, companyId), await countChains(db, companyId)];
      return { ok: broken.length === 0, ...counted, sealed, broken };
    },

    /** Seals every event whose transaction has ended (what the `audit.seal` job does). */
    seal: () => sealAuditEvents(db),

    /** One page, newest first; next_cursor is null on the last page. */
    async list(companyId: number, query: AuditQuery) {
      const filters = readFilters(query);
      const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
      const rows = await auditReadRepo.page(db, companyId, filters, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { data: page.map(serializeAuditEvent), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    /** `list` as the JSON text GET /api/audit-events sends, sealed events' texts from a cache (audit.text.service.ts). */
    async listText(companyId: number, query: AuditQuery): Promise<string> {
      return pageText(companyId, readFilters(query), Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT));
    },

    /**
     * The CSV export: the filters are checked now (a 422 before any byte is sent), then a header
     * and every matching event newest first, a page at a time.
     */
    exportCsv(companyId: number, query: AuditQuery): AsyncGenerator<string> {
      const filters = readFilters(query);
      return (async function* () {
        yield csvText([AUDIT_CSV_HEADER]);
        for (;;) {
          const rows = await auditReadRepo.page(db, companyId, filters, EXPORT_PAGE);
          if (rows.length > 0) yield csvText(rows.map(auditCsvRecord));
          if (rows.length < EXPORT_PAGE) return;
          const last = rows[rows.length - 1];
          filters.before = { xid: last.xid, id: last.id };
        }
      })();
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
