// S6-S10: custom contributions and their targets (docs/payroll.md, "The payroll rules").
import type { Db, Tx } from '../../db/client.js';
import type { TextTimestamps } from '../../db/prepared.js';
import { diffFields, recordAudit } from '../../platform/audit/index.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { isoTimestamp } from '../../platform/format.js';
import { moneyString, toKobo } from '../../tax-engine/money.js';
import {
  type CustomContributionRow,
  customContributionsRepo,
  type NewCustomContribution,
  type TargetRow,
} from './custom-contributions.repo.js';

/** A row or column set as the audit diff reads it. */
const asRecord = (value: object): Record<string, unknown> => value as Record<string, unknown>;

export const CUSTOM_NOT_FOUND = 'Custom contribution not found.';
export const CUSTOM_UPDATE_NOT_FOUND = 'The company or contribution could not be found.';
const NAME_TAKEN = 'The name has already been taken.';
/** docs/payroll.md, "Statutory amendments", amendment 3: a deductible part must be known before tax (not on net pay). */
export const DEDUCTIBLE_ONLY_EMPLOYEE_ON_GROSS =
  'The tax_deductible field may be true only for a contribution applied to gross_pay with an employee part.';

export interface CustomContributionInput {
  name?: string;
  type?: 'amount' | 'percentage';
  apply_to?: 'gross_pay' | 'net_pay';
  responsibility?: 'employee' | 'employer' | 'both';
  /** JSON numbers or decimal strings (platform/schemas.ts MoneyInput); null for the party that does not pay. */
  employee_value?: unknown;
  employer_value?: unknown;
  frequency?: 'per_paystub' | 'one_time';
  user_types?: string[];
  users?: string[];
  is_active?: boolean;
  tax_deductible?: boolean;
}

const invalid = (message: string) => new DomainError('validation', message);

function serializeTarget(row: TextTimestamps<TargetRow>) {
  return {
    id: row.id,
    custom_contribution_id: row.customContributionId,
    user_type_id: row.userTypeId,
    user_id: row.userId,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** `asNumbers`: S8 returns the values as numbers (the published interface), reads return decimal strings. */
export function serializeCustomContribution(
  row: TextTimestamps<CustomContributionRow>,
  targets: TextTimestamps<TargetRow>[],
  asNumbers = false,
) {
  const value = (v: string | null) => (v === null ? null : asNumbers ? Number(v) : moneyString(v));
  return {
    id: row.id,
    company_id: row.companyId,
    name: row.name,
    type: row.type,
    apply_to: row.applyTo,
    employee_responsibility: row.employeeResponsibility,
    employer_responsibility: row.employerResponsibility,
    employee_value: value(row.employeeValue),
    employer_value: value(row.employerValue),
    frequency: row.frequency,
    is_active: row.isActive,
    tax_deductible: row.taxDeductible,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    targets: targets.map(serializeTarget),
  };
}

/** Checks one value against its type: percentages 0..100, amounts ≥ 0, both at most two decimals. */
function checkValue(field: string, value: unknown, type: string): string {
  if (value === null || value === undefined) throw invalid(`The ${field} field is required for this responsibility.`);
  // Decimal notation only (a JSON number, or a string of digits with an optional point): toKobo
  // refuses "0x10", "1e5", "Infinity" and signs.
  const kobo = toKobo(value);
  if (kobo === null) {
    const negative = typeof value === 'number' ? value < 0 : typeof value === 'string' && /^\s*-\d+(\.\d+)?\s*$/.test(value);
    throw invalid(negative ? `The ${field} must be at least 0.` : `The ${field} must be a number with at most 2 decimal places.`);
  }
  if (type === 'percentage' && kobo > 10_000n) throw invalid(`The ${field} must be between 0 and 100 for a percentage.`);
  if (kobo > 100_000_000_000_000n) throw invalid(`The ${field} is too large.`);
  const text = String(kobo);
  return `${text.slice(0, -2) || '0'}.${text.slice(-2).padStart(2, '0')}`;
}

/** A value sent for the party that does not pay: checked like any other, then not stored. */
function ignored(field: string, value: unknown, type: string): null {
  if (value !== undefined && value !== null) checkValue(field, value, type);
  return null;
}

function responsibilityOf(row: CustomContributionRow): 'employee' | 'employer' | 'both' {
  if (row.employeeResponsibility && row.employerResponsibility) return 'both';
  return row.employerResponsibility ? 'employer' : 'employee';
}

/** The merged, validated column values of a create (no `current`) or an update. */
function columns(input: CustomContributionInput, current?: CustomContributionRow): NewCustomContribution {
  const name = (input.name ?? current?.name ?? '').trim();
  if (!name) throw invalid('The name field is required.');
  const type = input.type ?? (current?.type as CustomContributionInput['type']);
  const applyTo = input.apply_to ?? (current?.applyTo as CustomContributionInput['apply_to']);
  const responsibility = input.responsibility ?? (current ? responsibilityOf(current) : undefined);
  const frequency = input.frequency ?? (current?.frequency as CustomContributionInput['frequency']);
  if (!type) throw invalid('The type field is required.');
  if (!applyTo) throw invalid('The apply to field is required.');
  if (!responsibility) throw invalid('The responsibility field is required.');
  if (!frequency) throw invalid('The frequency field is required.');
  const employee = responsibility !== 'employer';
  const employer = responsibility !== 'employee';
  const taxDeductible = input.tax_deductible ?? current?.taxDeductible ?? false;
  if (taxDeductible && (applyTo !== 'gross_pay' || !employee)) throw invalid(DEDUCTIBLE_ONLY_EMPLOYEE_ON_GROSS);
  const pick = (given: unknown, stored: string | null | undefined) => (given !== undefined ? given : (stored ?? null));
  return {
    name,
    type,
    applyTo,
    employeeResponsibility: employee,
    employerResponsibility: employer,
    // The party that is not responsible carries no value, so the engine never charges it; a value
    // sent for it anyway must still be a valid one (as the schema's number bounds used to ensure).
    employeeValue: employee
      ? checkValue('employee_value', pick(input.employee_value, current?.employeeValue), type)
      : ignored('employee_value', input.employee_value, type),
    employerValue: employer
      ? checkValue('employer_value', pick(input.employer_value, current?.employerValue), type)
      : ignored('employer_value', input.employer_value, type),
    frequency,
    isActive: input.is_active ?? current?.isActive ?? true,
    taxDeductible,
  };
}

async function resolveTargets(tx: Tx, companyId: number, input: CustomContributionInput) {
  const typeNames = [...new Set((input.user_types ?? []).map((name) => name.trim()))];
  const emails = [...new Set((input.users ?? []).map((email) => email.trim().toLowerCase()))];
  const types = await customContributionsRepo.userTypesNamed(tx, companyId, typeNames);
  const people = await customContributionsRepo.usersByEmail(tx, companyId, emails);
  const knownTypes = new Set(types.map((type) => type.name.toLowerCase()));
  const missingType = typeNames.find((name) => !knownTypes.has(name.toLowerCase()));
  if (missingType !== undefined) throw invalid(`The user type "${missingType}" does not exist for this company.`);
  const knownEmails = new Set(people.flatMap((user) => [user.email.toLowerCase(), user.personalEmail.toLowerCase()]));
  const missingEmail = emails.find((email) => !knownEmails.has(email));
  if (missingEmail !== undefined) throw invalid(`No user with the e-mail "${missingEmail}" exists in this company.`);
  return { userTypeIds: types.map((type) => type.id), userIds: [...new Set(people.map((user) => user.id))] };
}

function nameTaken(error: unknown): boolean {
  return uniqueViolation(error) === 'custom_contributions_company_name_key';
}

export function createCustomContributionsService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async list(companyId: number) {
      const { rows, targets } = await customContributionsRepo.listWithTargets(db, companyId);
      return rows.map((row) =>
        serializeCustomContribution(
          row,
          targets.filter((target) => target.customContributionId === row.id),
        ),
      );
    },

    async show(companyId: number, id: number | null) {
      const row = id === null ? undefined : await customContributionsRepo.find(db, companyId, id);
      if (!row) throw notFound(CUSTOM_NOT_FOUND);
      return serializeCustomContribution(row, await customContributionsRepo.targets(db, [row.id]));
    },

    async create(companyId: number, input: CustomContributionInput) {
      const values = columns(input);
      try {
        return await db.transaction(async (tx) => {
          if (await customContributionsRepo.nameTaken(tx, companyId, values.name)) throw invalid(NAME_TAKEN);
          const { userTypeIds, userIds } = await resolveTargets(tx, companyId, input);
          const row = await customContributionsRepo.insert(tx, companyId, values);
          await customContributionsRepo.replaceTargets(tx, row.id, userTypeIds, userIds);
          await recordAudit(tx, [
            {
              companyId,
              action: 'custom_contribution.created',
              target: { type: 'custom_contribution', id: row.id },
              changes: diffFields(null, asRecord(values)),
            },
          ]);
          return serializeCustomContribution(row, await customContributionsRepo.targets(tx, [row.id]), true);
        });
      } catch (error) {
        if (nameTaken(error)) throw invalid(NAME_TAKEN);
        throw error;
      }
    },

    async update(companyId: number, id: number | null, input: CustomContributionInput) {
      try {
        return await db.transaction(async (tx) => {
          const current = id === null ? undefined : await customContributionsRepo.find(tx, companyId, id, true);
          if (!current) throw notFound(CUSTOM_UPDATE_NOT_FOUND);
          const values = columns(input, current);
          if (await customContributionsRepo.nameTaken(tx, companyId, values.name, current.id)) throw invalid(NAME_TAKEN);
          // Either list present replaces the whole target set with exactly what this request names.
          if (input.user_types !== undefined || input.users !== undefined) {
            const { userTypeIds, userIds } = await resolveTargets(tx, companyId, input);
            await customContributionsRepo.replaceTargets(tx, current.id, userTypeIds, userIds);
          }
          const row = await customContributionsRepo.update(tx, companyId, current.id, values);
          const changes = diffFields(asRecord(current), asRecord(row), Object.keys(values));
          if (input.user_types !== undefined || input.users !== undefined)
            changes.targets = [null, { user_types: input.user_types ?? [], users: input.users ?? [] }];
          await recordAudit(tx, [
            { companyId, action: 'custom_contribution.updated', target: { type: 'custom_contribution', id: current.id }, changes },
          ]);
          return serializeCustomContribution(row, await customContributionsRepo.targets(tx, [row.id]));
        });
      } catch (error) {
        if (nameTaken(error)) throw invalid(NAME_TAKEN);
        throw error;
      }
    },

    /** Records already on paystubs keep their name and amounts (their link is set to null). */
    async remove(companyId: number, id: number | null) {
      const deleted =
        id !== null &&
        (await db.transaction(async (tx) => {
          const gone = await customContributionsRepo.delete(tx, companyId, id);
          if (gone)
            await recordAudit(tx, [{ companyId, action: 'custom_contribution.deleted', target: { type: 'custom_contribution', id } }]);
          return gone;
        }));
      if (!deleted) throw notFound(CUSTOM_NOT_FOUND);
    },
  };
}
