// Fastify type augmentation shared by every route: the route's name (scopes, rate-limit key,
// metrics), its error family and its tenancy messages live in the route's `config`.
import type { ErrorFamily } from './errors.js';

export interface TenancyMessages {
  /** 403 body for a company the caller may not act for. */
  forbidden: string;
  /** 404 body for a company that does not exist; absent means 403 as well (decisions.md §2). */
  notFound?: string;
  /** Where the company id is read from; default query/body/form field `company_id`. */
  source?: 'input' | 'path';
  /** Path parameter holding the company id when source is 'path'. */
  pathParam?: string;
}

export interface Caller {
  companyId: number;
  tokenId: number;
  scopes: string[];
  plan: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route name from decisions.md §3 (`users.index`); routes without one are not under /api auth. */
    name?: string;
    family?: ErrorFamily;
    sensitive?: boolean;
    tenancy?: TenancyMessages;
    /** Body of a 400 for any schema failure (P2 `Bad Request`). */
    badRequestMessage?: string;
    /** Message of an unexpected 500 on this route. */
    internalMessage?: string;
  }
  interface FastifyRequest {
    caller?: Caller;
    /** The company this request acts for, resolved once by tenancy.ts. */
    targetCompanyId?: number;
  }
}
