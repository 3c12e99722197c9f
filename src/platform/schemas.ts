// TypeBox fragments shared by the route families: the target company input and the error bodies
// of each family (error-handler.ts decides which body a family answers; these describe them, and
// fast-json-stringify serializes by them, so a family's schema must hold every key it can send).
import { type TSchema, Type } from 'typebox';

/**
 * A money input (salaries, run overrides, custom contribution values, invoice amounts, wallet
 * top-ups): a JSON number or a decimal string, read by the feature's own parser, which refuses
 * anything but decimal notation with the field's message. No `type` on purpose: Ajv's type
 * coercion (`coerceTypes`) would turn "0x10" into 16, "1e5" into 100000, " " or null into 0 and
 * true into 1 before any parser saw them (docs/security.md, "Input: NUL characters and out-of-range numbers").
 */
export const MoneyInput = (description: string) =>
  Type.Unsafe<unknown>({ description: `${description} (a JSON number or a decimal string, e.g. "2500.50")` });

/** `company_id` of a query or body: an id, or its text (the tenancy hook reads it, platform/tenancy.ts). */
export const CompanyIdInput = Type.Optional(
  Type.Union([Type.Integer(), Type.String()], { description: 'Target company (default: the authenticated one)' }),
);

/** {error: message}: the plain, paystubs and settings families and the operator API. */
export const MessageError = Type.Object({ error: Type.String() });

/** {error: message, or {field: [message]} on 422}: the users and invoices families. */
export const FieldsError = Type.Object({ error: Type.Any({ description: 'A message, or {field: [message]} on 422' }) });

/** {error} for every failure; 422 adds `messages` ({error: "Validation failed.", messages}). */
export const CompaniesError = Type.Object({
  error: Type.String(),
  messages: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
});

/** The users CSV imports: {errors: {field: [message]}} on 422, {error: message} otherwise. */
export const BulkError = Type.Object({
  error: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
});

/** {status: "error", message} for the wallet's own refusals; {error} for 401 and 429. */
export const WalletError = Type.Object({
  status: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

/** The `response` entries of a family's errors: every 4xx and 5xx answers `schema`. */
export const errorResponses = <T extends TSchema>(schema: T) => ({ '4xx': schema, '5xx': schema });

const NullableInt = Type.Union([Type.Null(), Type.Integer()]);
/** A string field that may be null: the one definition the modules' response schemas share. */
export const NullableString = Type.Union([Type.Null(), Type.String()]);
const NullableUrl = Type.Union([Type.Null(), Type.String()]);

/** `page` and `per_page` of a paged list (docs/reference.md, "Common rules": per_page 1 to 100, page from 1). */
export const PageQueryFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

/** The Laravel paginator (platform/paginator.ts) around `item`, key for key in its order. */
export function LaravelPage(item: TSchema) {
  return Type.Object({
    current_page: Type.Integer(),
    data: Type.Array(item),
    first_page_url: Type.String(),
    from: NullableInt,
    last_page: Type.Integer(),
    last_page_url: Type.String(),
    next_page_url: NullableUrl,
    path: Type.String(),
    per_page: Type.Integer(),
    prev_page_url: NullableUrl,
    to: NullableInt,
    total: Type.Integer(),
  });
}
