// S1-S3: contribution settings. The API keeps every setting as a string (docs/payroll.md, "The
// payroll rules"); this file is the one place that validates those strings and turns them into the
// engine's settings.
import type { Db } from '../../db/client.js';
import { diffFields, recordAudit } from '../../platform/audit/index.js';
import { badRequest, DomainError, notFound } from '../../platform/errors.js';
import { isoTimestamp } from '../../platform/format.js';
import type { EngineSettings, TaxMethod, TaxRegimeSetting } from '../../tax-engine/engine.types.js';
import { toRate } from '../../tax-engine/money.js';
import { canonicalDeductionRatio, DEDUCTION_RATIO_MESSAGE } from './deduction-ratio.rules.js';
import { type SettingsRow, settingsRepo } from './settings.repo.js';

export const SETTINGS_NOT_FOUND = 'Contribution settings not found.';
export const NO_DATA = 'No data provided for update.';

type Kind = 'regime' | 'method' | 'nsitf' | 'percent' | 'boolean' | 'ratio';
/**
 * API field → [row key, kind]. A Map, not an object literal: a body field named `toString` or
 * `hasOwnProperty` must be an unknown setting, not a lookup of Object.prototype.
 */
const FIELDS = new Map<string, [keyof SettingsRow, Kind]>(
  Object.entries({
    tax_regime: ['taxRegime', 'regime'],
    basic_percentage: ['basicPercentage', 'percent'],
    housing_percentage: ['housingPercentage', 'percent'],
    transport_percentage: ['transportPercentage', 'percent'],
    pension_enabled: ['pensionEnabled', 'boolean'],
    employee_pension_rate: ['employeePensionRate', 'percent'],
    employer_pension_rate: ['employerPensionRate', 'percent'],
    nhf_enabled: ['nhfEnabled', 'boolean'],
    nhf_rate: ['nhfRate', 'percent'],
    nhis_enabled: ['nhisEnabled', 'boolean'],
    nhis_employee_rate: ['nhisEmployeeRate', 'percent'],
    nhis_employer_rate: ['nhisEmployerRate', 'percent'],
    tax_method: ['taxMethod', 'method'],
    nsitf_base: ['nsitfBase', 'nsitf'],
    year_end_true_up: ['yearEndTrueUp', 'boolean'],
    max_deduction_ratio: ['maxDeductionRatio', 'ratio'],
  } satisfies Record<string, [keyof SettingsRow, Kind]>),
);
export const SETTING_FIELDS = [...FIELDS.keys()];
const REGIMES = ['auto', 'pita', 'nta2025', 'none'];
/** docs/payroll.md, "Statutory amendments", amendment 4: `annualised` (the default) or `cumulative`. */
const TAX_METHODS = ['annualised', 'cumulative'];
/** The NSITF levy's base on the remittance schedules (docs/compliance.md): gross pay (default) or basic + housing + transport. */
export const NSITF_BASES = ['gross', 'basic_housing_transport'] as const;
/** Echoed back by S2; a client may send the object back unchanged, so these are ignored. */
const READ_ONLY = new Set(['id', 'company_id', 'created_at', 'updated_at']);

const settingsError = (message: string) => new DomainError('validation', message);

/** Validates one value; returns its canonical string. */
function canonical(field: string, kind: Kind, raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
  if (text === undefined) throw settingsError(`The ${field} must be a string.`);
  if (kind === 'regime') {
    const value = text.toLowerCase();
    if (!REGIMES.includes(value)) throw settingsError(`The ${field} must be one of: ${REGIMES.join(', ')}.`);
    return value;
  }
  if (kind === 'method') {
    const value = text.toLowerCase();
    if (!TAX_METHODS.includes(value)) throw settingsError(`The ${field} must be one of: ${TAX_METHODS.join(', ')}.`);
    return value;
  }
  if (kind === 'nsitf') {
    const value = text.toLowerCase();
    if (!(NSITF_BASES as readonly string[]).includes(value)) throw settingsError(`The ${field} must be one of: ${NSITF_BASES.join(', ')}.`);
    return value;
  }
  if (kind === 'ratio') {
    const value = canonicalDeductionRatio(text);
    if (value === null) throw settingsError(DEDUCTION_RATIO_MESSAGE);
    return value;
  }
  if (kind === 'boolean') {
    const value = text.toLowerCase();
    if (value === 'true' || value === '1') return 'true';
    if (value === 'false' || value === '0') return 'false';
    throw settingsError(`The ${field} must be "true" or "false".`);
  }
  const rate = toRate(text);
  if (rate === null || rate > 1_000_000n) throw settingsError(`The ${field} must be a number from 0 to 100 with at most 4 decimal places.`);
  // Canonical decimal text without trailing zeros: "08.50" → "8.5".
  const whole = rate / 10_000n;
  const fraction = (rate % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** Validates an S3 body against the current row; returns the changed columns. */
export function validateSettingsUpdate(body: unknown, current: SettingsRow): Partial<SettingsRow> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(NO_DATA);
  const entries = Object.entries(body as Record<string, unknown>).filter(([field]) => !READ_ONLY.has(field));
  if (entries.length === 0) throw badRequest(NO_DATA);
  const changes: Record<string, string> = {};
  for (const [field, raw] of entries) {
    const spec = FIELDS.get(field);
    if (!spec) throw settingsError(`The ${field} field is not a contribution setting.`);
    changes[spec[0]] = canonical(field, spec[1], raw);
  }
  const merged = { ...current, ...changes } as SettingsRow;
  const split =
    (toRate(merged.basicPercentage) ?? 0n) + (toRate(merged.housingPercentage) ?? 0n) + (toRate(merged.transportPercentage) ?? 0n);
  if (split > 1_000_000n) {
    throw settingsError('The basic_percentage, housing_percentage and transport_percentage must not add up to more than 100.');
  }
  return changes as Partial<SettingsRow>;
}

export function serializeSettings(row: SettingsRow) {
  const out: Record<string, unknown> = { id: row.id, company_id: row.companyId };
  for (const [field, [key]] of FIELDS) out[field] = row[key];
  out.created_at = isoTimestamp(row.createdAt);
  out.updated_at = isoTimestamp(row.updatedAt);
  return out;
}

export function toEngineSettings(row: SettingsRow): EngineSettings {
  return {
    taxRegime: row.taxRegime as TaxRegimeSetting,
    basicPercentage: row.basicPercentage,
    housingPercentage: row.housingPercentage,
    transportPercentage: row.transportPercentage,
    pensionEnabled: row.pensionEnabled === 'true',
    employeePensionRate: row.employeePensionRate,
    employerPensionRate: row.employerPensionRate,
    nhfEnabled: row.nhfEnabled === 'true',
    nhfRate: row.nhfRate,
    nhisEnabled: row.nhisEnabled === 'true',
    nhisEmployeeRate: row.nhisEmployeeRate,
    nhisEmployerRate: row.nhisEmployerRate,
    taxMethod: row.taxMethod as TaxMethod,
  };
}

/** Also the web console's settings API (get / update for one company). */
export function createSettingsService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** S1: the caller's settings and those of every company below it. */
    async listTree(companyId: number) {
      const rows = await settingsRepo.listTree(db, companyId);
      return rows.map(serializeSettings);
    },
    async get(companyId: number) {
      const row = await settingsRepo.find(db, companyId);
      if (!row) throw notFound(SETTINGS_NOT_FOUND);
      return serializeSettings(row);
    },
    async update(companyId: number, body: unknown) {
      return db.transaction(async (tx) => {
        const current = await settingsRepo.lock(tx, companyId);
        if (!current) throw notFound(SETTINGS_NOT_FOUND);
        const updated = await settingsRepo.update(tx, companyId, validateSettingsUpdate(body, current));
        const before = serializeSettings(current) as Record<string, unknown>;
        const after = serializeSettings(updated as SettingsRow) as Record<string, unknown>;
        const { updated_at: _was, ...beforeFields } = before;
        const { updated_at: _now, ...afterFields } = after;
        await recordAudit(tx, [
          {
            companyId,
            action: 'contribution_settings.updated',
            target: { type: 'contribution_settings', id: companyId },
            changes: diffFields(beforeFields, afterFields),
          },
        ]);
        return after as ReturnType<typeof serializeSettings>;
      });
    },
  };
}
