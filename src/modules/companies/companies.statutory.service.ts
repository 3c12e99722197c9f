// A company's sector and statutory registrations (docs/statutory-data.md): read from C2/C4 bodies,
// PATCH /admin/companies/{id} and the console's settings form, shown on the Company resource. One
// reader for all of them, so every surface accepts the same values with the same messages. Formats
// and what null means: docs/statutory-data.md.
import { Type } from 'typebox';
import type { Db, Executor } from '../../db/client.js';
import { addFieldError, type FieldErrors, invalid, notFound } from '../../platform/errors.js';
import { fieldLabel } from '../../platform/field-reader.js';
import { isStateCode } from '../reference-data/index.js';
import { type CompanyRow, companiesRepo } from './companies.repo.js';

export const SECTORS = ['private', 'public'] as const;

/** The registration numbers: request field → column key. */
const REGISTRATIONS = [
  ['rc_number', 'rcNumber'],
  ['pencom_employer_code', 'pencomEmployerCode'],
  ['nhf_employer_number', 'nhfEmployerNumber'],
  ['nsitf_number', 'nsitfNumber'],
  ['itf_number', 'itfNumber'],
] as const;

export const COMPANY_STATUTORY_FIELDS = ['sector', ...REGISTRATIONS.map(([field]) => field), 'tax_ids'];

export interface CompanyStatutoryValues {
  sector?: string;
  rcNumber?: string | null;
  pencomEmployerCode?: string | null;
  nhfEmployerNumber?: string | null;
  nsitfNumber?: string | null;
  itfNumber?: string | null;
  taxIds?: Record<string, string>;
}

// CAC numbers: RC (companies), BN (business names), IT (incorporated trustees), then the digits.
const RC_NUMBER = /^(RC|BN|IT)?\d{1,8}$/;
// Registration numbers issued by PenCom, FMBN, NSITF and ITF: formats differ by issuer and era.
const REGISTRATION = /^[A-Z0-9][A-Z0-9 /-]{0,29}$/;

type Body = Record<string, unknown>;

/**
 * The statutory fields present in `body`, normalised (upper-case, spaces dropped from RC numbers);
 * problems go into `errors`. Absent = unchanged; null or "" clears a registration; `tax_ids`
 * replaces the whole map (null or {} empties it; a null value drops that state).
 */
export function readCompanyStatutory(body: Body, errors: FieldErrors): CompanyStatutoryValues {
  const values: CompanyStatutoryValues = {};
  if (body.sector !== undefined) {
    const sector = typeof body.sector === 'string' ? body.sector.trim().toLowerCase() : '';
    if ((SECTORS as readonly string[]).includes(sector)) values.sector = sector;
    else addFieldError(errors, 'sector', 'The selected sector is invalid: use private or public.');
  }
  for (const [field, key] of REGISTRATIONS) {
    const raw = body[field];
    if (raw === undefined) continue;
    if (raw !== null && typeof raw !== 'string') {
      addFieldError(errors, field, `The ${fieldLabel(field)} field must be a string.`);
      continue;
    }
    const text = (raw ?? '').trim().toUpperCase();
    if (text === '') values[key] = null;
    else if (field === 'rc_number') {
      const compact = text.replace(/\s+/g, '');
      if (RC_NUMBER.test(compact)) values[key] = compact;
      else addFieldError(errors, field, 'The rc number field must be a CAC number: RC, BN or IT and up to 8 digits (e.g. RC123456).');
    } else if (REGISTRATION.test(text)) values[key] = text;
    else addFieldError(errors, field, `The ${fieldLabel(field)} field must be at most 30 letters, digits, spaces, / or -.`);
  }
  if (body.tax_ids !== undefined) {
    const taxIds = readTaxIds(body.tax_ids, errors);
    if (taxIds) values.taxIds = taxIds;
  }
  return values;
}

function readTaxIds(raw: unknown, errors: FieldErrors): Record<string, string> | undefined {
  if (raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    addFieldError(errors, 'tax_ids', 'The tax ids field must be an object of state code to payer ID (e.g. {"LA": "1234567"}).');
    return undefined;
  }
  const out: Record<string, string> = {};
  let ok = true;
  for (const [rawCode, rawId] of Object.entries(raw)) {
    const code = rawCode.trim().toUpperCase();
    const field = `tax_ids.${rawCode}`;
    if (!isStateCode(code)) {
      addFieldError(errors, field, `${rawCode} is not a state code of GET /api/states.`);
      ok = false;
      continue;
    }
    if (rawId === null) continue;
    const id = typeof rawId === 'string' ? rawId.trim().toUpperCase() : '';
    if (!REGISTRATION.test(id)) {
      addFieldError(errors, field, `The payer ID for ${code} must be at most 30 letters, digits, spaces, / or -.`);
      ok = false;
      continue;
    }
    out[code] = id;
  }
  // Stored in state-code order, so two equal maps read the same.
  return ok ? Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b))) : undefined;
}

/** The statutory part of the Company resource (C1-C4, the operator's view). */
export function serializeCompanyStatutory(company: Omit<CompanyRow, 'createdAt' | 'updatedAt'>) {
  return {
    sector: company.sector,
    rc_number: company.rcNumber,
    pencom_employer_code: company.pencomEmployerCode,
    nhf_employer_number: company.nhfEmployerNumber,
    nsitf_number: company.nsitfNumber,
    itf_number: company.itfNumber,
    tax_ids: company.taxIds ?? {},
  };
}

const NullableText = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description }));

/** Request properties of C2/C4 and PATCH /admin/companies/{id}. */
export const CompanyStatutoryBodyProperties = {
  sector: Type.Optional(Type.String({ description: 'private (default) or public: NHF is compulsory in the public sector' })),
  rc_number: NullableText('CAC registration number: RC, BN or IT and up to 8 digits; null clears'),
  pencom_employer_code: NullableText('PenCom employer code; null clears'),
  nhf_employer_number: NullableText('Federal Mortgage Bank NHF employer number; null clears'),
  nsitf_number: NullableText('NSITF employer registration number; null clears'),
  itf_number: NullableText('ITF employer registration number; null clears'),
  // No type: the reader explains a wrong one in its own words (the schema's would say "a string").
  tax_ids: Type.Optional(
    Type.Unsafe<Record<string, string | null> | null>({
      description: "State code (GET /api/states) → the employer's payer ID at that state's tax authority; replaces the whole map",
    }),
  ),
};

const Nullable = Type.Union([Type.Null(), Type.String()]);
/** Response properties of the Company resource. */
export const CompanyStatutoryProperties = {
  sector: Type.String(),
  rc_number: Nullable,
  pencom_employer_code: Nullable,
  nhf_employer_number: Nullable,
  nsitf_number: Nullable,
  itf_number: Nullable,
  tax_ids: Type.Record(Type.String(), Type.String()),
};

/** Writes the values a reader returned, in the caller's transaction: the row written, if any. */
export async function writeCompanyStatutory(
  executor: Executor,
  companyId: number,
  values: CompanyStatutoryValues,
): Promise<CompanyRow | undefined> {
  return Object.keys(values).length > 0 ? companiesRepo.update(executor, companyId, values) : undefined;
}

/** The console's settings form: a company edits its own registrations. */
export function createCompanyStatutoryService(deps: { db: Db }) {
  return {
    async update(companyId: number, body: Body) {
      const errors: FieldErrors = {};
      const values = readCompanyStatutory(body, errors);
      if (Object.keys(errors).length > 0) throw invalid(errors);
      const row = await companiesRepo.update(deps.db, companyId, values);
      if (!row) throw notFound('Company not found.');
      return serializeCompanyStatutory(row);
    },
  };
}
