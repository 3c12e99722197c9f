// Fastify type augmentation shared by every route: the route's name (scopes, rate-limit key,
// metrics), its error family and its tenancy messages live in the route's `config`.
import type { FastifyRequest } from 'fastify';
import type { RouteName } from './auth/tokens.js';
import type { ErrorFamily } from './errors.js';

export interface TenancyMessages {
  /** 403 body for a company the caller may not act for. */
  forbidden: string;
  /** 404 body for a company that does not exist; absent means 403 as well (docs/reference.md, "Common rules"). */
  notFound?: string;
  /** Where the company id is read from; default query/body/form field `company_id`. */
  source?: 'input' | 'path';
  /** Path parameter holding the company id when source is 'path'. */
  pathParam?: string;
}

/** The change a committed Idempotency-Key names (platform/idempotency-claims.ts). */
export interface CommittedChange {
  kind: string;
  id: string;
}

export type RecoverAnswer = (
  request: FastifyRequest,
  change: CommittedChange,
) => Promise<{ statusCode: number; body: unknown } | undefined>;

export interface Caller {
  companyId: number;
  tokenId: number;
  scopes: string[];
  plan: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route name (docs/reference.md, "Routes, IDs and names") (`users.index`); routes without one are not under /api auth. */
    name?: RouteName;
    family?: ErrorFamily;
    sensitive?: boolean;
    tenancy?: TenancyMessages;
    /** Body of a 400 for any schema failure (P2 `Bad Request`). */
    badRequestMessage?: string;
    /**
     * 404 message of the resource named in the path. A path id that cannot exist (beyond int4, or
     * holding a NUL) gets it without a lookup (input-safety.ts).
     */
    notFoundMessage?: string;
    /**
     * The route's own code checks every query and body value, NUL characters and out-of-range
     * numbers included, with the word-for-word messages the published interface gives it (the
     * wallet's W1/W2); input-safety.ts then leaves its query and body alone (headers and path ids
     * are still checked).
     */
    ownInputChecks?: true;
    /** Message of an unexpected 500 on this route. */
    internalMessage?: string;
    /**
     * Idempotency-Key after a crash (docs/decisions.md): rebuilds the route's answer from the change
     * its transaction committed (markIdempotentChange) when the answer itself was never stored.
     * Undefined: the change cannot be found any more (answered with the documented 409).
     */
    idempotency?: { recover: RecoverAnswer };
  }
  interface FastifyRequest {
    caller?: Caller;
    /** The company this request acts for, resolved once by tenancy.ts. */
    targetCompanyId?: number;
  }
}
