// P1/P2, S4/S5 and the console's payroll-run views. A P2 call is one payroll run: items are
// validated one by one, computed by the pure engine with per-run constants, and every OK item is
// written in ONE transaction with two multi-row statements (paystubs, each carrying its contribution
// record; custom contribution records) plus the one_time applications.
import crypto from 'node:crypto';
import type { Db } from '../../db/client.js';
import {
  type CustomContributionRule,
  computePaystub,
  PERIODS_PER_YEAR,
  type PreparedCustom,
  prepareCustom,
  prepareRun,
} from '../../payroll/engine.js';
import { type Kobo, koboToString, toKobo } from '../../payroll/money.js';
import { notFound } from '../../platform/errors.js';
import { type FailedItem, type ValidItem, validateItem } from './paystubs.items.js';
import {
  type ActiveCustomRow,
  type InsertedRow,
  type NewPaystub,
  type NewRecord,
  type PaystubFilters,
  type PaystubRow,
  paystubsRepo,
  type RecordRow,
} from './paystubs.repo.js';
import {
  serializeContribution,
  serializeContributionDetails,
  serializeEmbeddedUser,
  serializePaystub,
  serializeRecord,
} from './paystubs.serializer.js';
import { settingsRepo, toEngineSettings } from './settings.service.js';

export const PAYSTUBS_FORBIDDEN = "You do not have permission to access this company's paystubs.";
export const PAYSTUBS_NOT_FOUND = 'Paystub or company not found.';
export const USER_NOT_FOUND = 'User not found.';
const DUPLICATE = 'A paystub for this user and pay period already exists.';
const UNKNOWN_USER = 'The selected id is invalid.';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** `PR-20261122-4F7K2Q`: the run's date (UTC) and six random characters. */
export function newTransactionId(now = new Date()): string {
  const bytes = crypto.randomBytes(6);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
  return `PR-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${suffix}`;
}

interface CustomPlan {
  rule: PreparedCustom;
  oneTime: boolean;
  everyone: boolean;
  userTypeIds: Set<number>;
  userIds: Set<number>;
}

function planCustoms(rows: ActiveCustomRow[]): CustomPlan[] {
  return rows.map((row) => {
    const rule: CustomContributionRule = {
      id: row.id,
      name: row.name,
      type: row.type as CustomContributionRule['type'],
      applyTo: row.apply_to as CustomContributionRule['applyTo'],
      employeeValue: row.employee_value,
      employerValue: row.employer_value,
    };
    const userTypeIds = new Set(row.target_user_type_ids ?? []);
    const userIds = new Set(row.target_user_ids ?? []);
    return {
      rule: prepareCustom(rule),
      oneTime: row.frequency === 'one_time',
      everyone: userTypeIds.size === 0 && userIds.size === 0,
      userTypeIds,
      userIds,
    };
  });
}

const k = koboToString;

/** The stored row, rebuilt from what was inserted and what the database returned. */
function paystubRow(companyId: number, transactionId: string, p: NewPaystub, meta: InsertedRow): PaystubRow {
  return {
    id: meta.id,
    company_id: companyId,
    user_id: p.userId,
    pay_period_start: p.start,
    pay_period_end: p.end,
    taxable_income: p.taxableIncome,
    reimbursements: p.reimbursements,
    other_allowances: p.otherAllowances,
    gross_pay: p.grossPay,
    net_pay: p.netPay,
    tax_withheld: p.taxWithheld,
    pension_contribution: p.pension,
    nhf_contribution: p.nhf,
    nhis_contribution: p.nhis,
    other_deductions: p.otherDeductions,
    employer_pension_contribution: p.employerPension,
    nhis_employer_contribution: p.nhisEmployer,
    employer_cost: p.employerCost,
    tax_regime: p.regime,
    status: 'unpaid',
    transaction_id: transactionId,
    created_at: meta.created_at,
    updated_at: meta.updated_at,
  };
}
const key = (userId: number, start: string, end: string) => `${userId}|${start}|${end}`;

export interface PaystubListQuery {
  user_id?: number;
  transaction_id?: string;
  status?: string;
  page?: number;
  per_page?: number;
}

export function createPaystubsService(deps: { db: Db; config: { publicUrl: string } }) {
  const { db, config } = deps;

  return {
    /** P2. `items` is the raw array (the envelope was checked by the route). */
    async createRun(companyId: number, items: unknown[]) {
      const failed: FailedItem[] = [];
      const valid: ValidItem[] = [];
      for (let i = 0; i < items.length; i++) {
        const result = validateItem(items[i], i);
        if ('errors' in result) failed.push(result);
        else valid.push(result);
      }
      const transactionId = newTransactionId();

      const created = await db.transaction(async (tx) => {
        // One run at a time per company: duplicate checks and one_time applications stay exact.
        await paystubsRepo.lockCompanyRuns(tx, companyId);
        const userIds = [...new Set(valid.map((item) => item.userId))];
        // One connection per transaction: these run one after the other, never concurrently.
        const context = await paystubsRepo.context(tx, companyId);
        const settings = await settingsRepo.find(tx, companyId);
        const users = await paystubsRepo.runUsers(tx, companyId, userIds);
        const customRows = await paystubsRepo.activeCustoms(tx, companyId);
        const existing = await paystubsRepo.existing(
          tx,
          valid.map((item) => ({ userId: item.userId, start: item.start, end: item.end })),
        );
        if (!context || !settings) throw notFound(PAYSTUBS_NOT_FOUND);
        const run = prepareRun(toEngineSettings(settings));
        const customs = planCustoms(customRows);
        const oneTimeIds = customs.filter((plan) => plan.oneTime).map((plan) => plan.rule.id);
        const applied = new Set(
          (await paystubsRepo.applied(tx, oneTimeIds, userIds)).map((row) => `${row.custom_contribution_id}|${row.user_id}`),
        );
        const usersById = new Map(users.map((user) => [user.id, user]));
        const taken = new Set(existing.map((row) => key(row.user_id, row.pay_period_start, row.pay_period_end)));
        const companyPeriods = PERIODS_PER_YEAR[context.payment_frequency.toLowerCase()] ?? 12;

        // Earliest pay_period_start first, so a one_time contribution lands on a user's first period.
        const ordered = [...valid].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index));
        const rows: {
          item: ValidItem;
          paystub: NewPaystub;
          records: Omit<NewRecord, 'contributionId'>[];
          oneTime: number[];
        }[] = [];
        for (const item of ordered) {
          const user = usersById.get(item.userId);
          if (!user) {
            failed.push({ index: item.index, id: item.rawId, errors: { id: [UNKNOWN_USER] } });
            continue;
          }
          const itemKey = key(item.userId, item.start, item.end);
          if (taken.has(itemKey)) {
            failed.push({ index: item.index, id: item.rawId, errors: { pay_period_start: [DUPLICATE] } });
            continue;
          }
          const applicable: PreparedCustom[] = [];
          const oneTime: number[] = [];
          for (const plan of customs) {
            if (!plan.everyone && !plan.userIds.has(user.id) && !(user.user_type_id !== null && plan.userTypeIds.has(user.user_type_id)))
              continue;
            if (plan.oneTime) {
              const appliedKey = `${plan.rule.id}|${user.id}`;
              if (applied.has(appliedKey)) continue;
              oneTime.push(plan.rule.id);
            }
            applicable.push(plan.rule);
          }
          const result = computePaystub(run, {
            payPeriodEnd: item.end,
            taxableIncome: item.taxableIncome,
            reimbursements: item.reimbursements,
            otherAllowances: item.otherAllowances,
            periodsPerYear: (user.payment_frequency && PERIODS_PER_YEAR[user.payment_frequency.toLowerCase()]) || companyPeriods,
            annualRentPaid: user.annual_rent_paid === null ? null : (toKobo(user.annual_rent_paid) as Kobo),
            lifeAssurancePremium: user.life_assurance_premium === null ? null : (toKobo(user.life_assurance_premium) as Kobo),
            customs: applicable,
          });
          if (!result.ok) {
            failed.push({ index: item.index, id: item.rawId, errors: result.errors });
            continue;
          }
          taken.add(itemKey); // a second item for the same user and period in this batch fails
          for (const id of oneTime) applied.add(`${id}|${user.id}`);
          const f = result.figures;
          rows.push({
            item,
            oneTime,
            paystub: {
              userId: user.id,
              start: item.start,
              end: item.end,
              taxableIncome: k(item.taxableIncome),
              reimbursements: k(item.reimbursements),
              otherAllowances: k(item.otherAllowances),
              grossPay: k(f.grossPay),
              netPay: k(f.netPay),
              taxWithheld: k(f.taxWithheld),
              pension: k(f.pension),
              nhf: k(f.nhf),
              nhis: k(f.nhis),
              otherDeductions: k(f.otherDeductions),
              employerPension: k(f.employerPension),
              nhisEmployer: k(f.nhisEmployer),
              employerCost: k(f.employerCost),
              regime: f.regime,
            },
            records: f.customs.map((custom) => ({
              customContributionId: custom.id,
              userId: user.id,
              name: custom.name,
              employee: k(custom.employee),
              employer: k(custom.employer),
            })),
          });
        }

        // ON CONFLICT DO NOTHING: should a (user, period) appear concurrently despite the lock (for
        // example a paystub written by another path), only that item fails; the rest are kept.
        const inserted = await paystubsRepo.insertPaystubs(
          tx,
          companyId,
          transactionId,
          rows.map((row) => row.paystub),
        );
        const byKey = new Map(inserted.map((row) => [key(row.user_id, row.pay_period_start, row.pay_period_end), row]));
        const kept = rows.flatMap((row) => {
          const meta = byKey.get(key(row.paystub.userId, row.paystub.start, row.paystub.end));
          if (!meta) {
            failed.push({ index: row.item.index, id: row.item.rawId, errors: { pay_period_start: [DUPLICATE] } });
            return [];
          }
          return [{ ...row, paystubRow: paystubRow(companyId, transactionId, row.paystub, meta) }];
        });
        // The paystub row is also its contribution record, so records point at the paystub's id.
        const newRecords = kept.flatMap((row) => row.records.map((record) => ({ ...record, contributionId: row.paystubRow.id })));
        const recordMeta = await paystubsRepo.insertRecords(tx, companyId, newRecords);
        const metaByKey = new Map(recordMeta.map((meta) => [`${meta.contribution_id}|${meta.custom_contribution_id}`, meta]));
        const records: RecordRow[] = newRecords.map((record) => {
          const meta = metaByKey.get(`${record.contributionId}|${record.customContributionId}`) as InsertedRow;
          return {
            id: meta.id,
            contribution_id: record.contributionId,
            custom_contribution_id: record.customContributionId,
            user_id: record.userId,
            name: record.name,
            employee_contribution: record.employee,
            employer_contribution: record.employer,
            created_at: meta.created_at,
            updated_at: meta.updated_at,
          };
        });
        await paystubsRepo.insertApplications(
          tx,
          kept.flatMap((row) =>
            row.oneTime.map((customContributionId) => ({
              customContributionId,
              userId: row.paystubRow.user_id,
              paystubId: row.paystubRow.id,
            })),
          ),
        );
        const recordsByContribution = new Map<number, typeof records>();
        for (const record of records) {
          const list = recordsByContribution.get(record.contribution_id);
          if (list) list.push(record);
          else recordsByContribution.set(record.contribution_id, [record]);
        }
        return kept
          .sort((a, b) => a.item.index - b.item.index)
          .map((row) => ({
            paystub: serializePaystub(row.paystubRow),
            custom_contributions: (recordsByContribution.get(row.paystubRow.id) ?? []).map(serializeRecord),
          }));
      });
      failed.sort((a, b) => a.index - b.index);
      return {
        message: 'Paystub processing completed',
        transaction_id: transactionId,
        created_paystubs: created,
        failed_paystubs: failed.map((item) => ({ id: item.id, errors: item.errors })),
      };
    },

    /** P1: Laravel's LengthAwarePaginator, newest first. */
    async list(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>) {
      const filters: PaystubFilters = { userId: query.user_id, transactionId: query.transaction_id, status: query.status };
      const perPage = query.per_page ?? 10;
      const page = query.page ?? 1;
      const offset = (page - 1) * perPage;
      const [total, rows] = await Promise.all([
        paystubsRepo.count(db, companyId, filters),
        paystubsRepo.page(db, companyId, filters, offset, perPage),
      ]);
      const [users, records] = await Promise.all([
        paystubsRepo.usersOf(db, companyId, [...new Set(rows.map((row) => row.user_id))]),
        paystubsRepo.recordsOf(
          db,
          companyId,
          rows.map((row) => row.id),
        ),
      ]);
      const usersById = new Map(users.map((user) => [user.id, serializeEmbeddedUser(user)]));
      const data = rows.map((row) => ({
        ...serializePaystub(row),
        user: usersById.get(row.user_id) ?? null,
        contribution: serializeContribution(
          row,
          records.filter((record) => record.contribution_id === row.id),
        ),
      }));

      const path = `${config.publicUrl.replace(/\/$/, '')}/api/paystubs`;
      const kept = new URLSearchParams();
      for (const [name, value] of Object.entries(rawQuery)) {
        if (name !== 'page' && value !== undefined && value !== null) kept.append(name, String(value));
      }
      const url = (n: number) => {
        const params = new URLSearchParams(kept);
        params.set('page', String(n));
        return `${path}?${params.toString()}`;
      };
      const lastPage = Math.max(1, Math.ceil(total / perPage));
      return {
        message: 'Paystubs retrieved successfully',
        data: {
          current_page: page,
          data,
          first_page_url: url(1),
          from: rows.length > 0 ? offset + 1 : null,
          last_page: lastPage,
          last_page_url: url(lastPage),
          next_page_url: page < lastPage ? url(page + 1) : null,
          path,
          per_page: perPage,
          prev_page_url: page > 1 ? url(page - 1) : null,
          to: rows.length > 0 ? offset + rows.length : null,
          total,
        },
      };
    },

    /** S4: every contribution record of a company. */
    async companyContributions(companyId: number) {
      const rows = await paystubsRepo.contributions(db, companyId);
      return withRecords(rows);
    },

    /** S5: one user's contribution records (the user must be in the target company). */
    async userContributions(companyId: number, userId: number | null) {
      if (userId === null || !(await paystubsRepo.userExists(db, companyId, userId))) throw notFound(USER_NOT_FOUND);
      return withRecords(await paystubsRepo.contributions(db, companyId, userId));
    },

    /** Console: payroll runs with their count and totals, newest first. */
    async listRuns(companyId: number, page = 1, perPage = 20) {
      const rows = await paystubsRepo.runs(db, companyId, perPage, (page - 1) * perPage);
      return rows.map((row) => ({
        transaction_id: row.transaction_id,
        paystubs: row.paystubs,
        gross_pay: row.gross_pay,
        net_pay: row.net_pay,
        tax_withheld: row.tax_withheld,
        created_at: row.created_at,
      }));
    },

    /** Console: the paystubs of one run (P1 filtered by transaction_id). */
    async runPaystubs(companyId: number, transactionId: string, page = 1, perPage = 50) {
      return this.list(
        companyId,
        { transaction_id: transactionId, page, per_page: perPage },
        { transaction_id: transactionId, per_page: perPage },
      );
    },
  };

  async function withRecords(rows: Awaited<ReturnType<typeof paystubsRepo.contributions>>) {
    const companyIds = [...new Set(rows.map((row) => row.company_id))];
    const records = companyIds.length
      ? await paystubsRepo.recordsOf(
          db,
          companyIds[0],
          rows.map((row) => row.id),
        )
      : [];
    const byContribution = new Map<number, typeof records>();
    for (const record of records) {
      const list = byContribution.get(record.contribution_id);
      if (list) list.push(record);
      else byContribution.set(record.contribution_id, [record]);
    }
    return rows.map((row) => serializeContributionDetails(row, byContribution.get(row.id) ?? []));
  }
}
