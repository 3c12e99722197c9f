// Payslips (docs/compliance.md, "Payslips"): one paystub's PDF, a run's PDFs as a streamed ZIP, and
// the PDF behind a signed link. Rows come from payslips.repo.ts, lines from payslip.layout.planner.ts,
// bytes from payslip.render.view.ts.
import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import { notFound } from '../../platform/errors.js';
import type { PayslipLinks } from '../paystubs/index.js';
import { stateByCode } from '../reference-data/index.js';
import { payslipLayout } from './payslip.layout.planner.js';
import type { PayslipSource } from './payslip.types.js';
import { type ItemRow, type PayslipRow, payslipsRepo, type RecordRow, type YtdRow } from './payslips.repo.js';
import { type ZipStream, zipStream } from './payslips.zip.view.js';

/**
 * The renderer and pdfkit under it are loaded at the first payslip, not at start: a server that never
 * draws one does not pay for them (docs/architecture.md, "Heavy libraries load at first use").
 */
const pdfRenderer = () => import('./payslip.render.view.js');

export const PAYSTUB_NOT_FOUND = 'Paystub not found.';
/** Paystubs read per query while a run's ZIP is written: memory is this many rows, whatever the run's size. */
export const ZIP_PAGE = 100;

/** A state code with its name for the payslip (a code no longer listed shows as itself). */
function payeStateOf(code: string | null): PayslipSource['paystub']['payeState'] {
  if (code === null) return null;
  return { code, name: stateByCode(code)?.name ?? code };
}

function source(row: PayslipRow, records: RecordRow[], items: ItemRow[], ytd: YtdRow | undefined): PayslipSource {
  return {
    company: { name: row.company_name, address: row.company_address },
    employee: {
      firstName: row.first_name,
      lastName: row.last_name,
      employeeId: row.employee_id,
      title: row.title,
      department: row.department,
      bankName: row.bank_name,
      accountNumber: row.account_number,
    },
    paystub: {
      payPeriodStart: row.pay_period_start,
      payPeriodEnd: row.pay_period_end,
      status: row.status,
      transactionId: row.transaction_id,
      paidOn: row.paid_on,
      taxRegime: row.tax_regime,
      payeState: payeStateOf(row.paye_state),
      taxableIncome: row.taxable_income,
      basicPay: row.basic_pay,
      housingPay: row.housing_pay,
      transportPay: row.transport_pay,
      otherAllowances: row.other_allowances,
      reimbursements: row.reimbursements,
      grossPay: row.gross_pay,
      taxWithheld: row.tax_withheld,
      taxTrueUp: row.tax_true_up,
      pension: row.pension_contribution,
      nhf: row.nhf_contribution,
      nhis: row.nhis_contribution,
      netPay: row.net_pay,
      employerPension: row.employer_pension_contribution,
      employerNhis: row.nhis_employer_contribution,
      employerCost: row.employer_cost,
    },
    paymentDate: row.payment_date,
    customContributions: records.map((r) => ({ name: r.name, employee: r.employee, employer: r.employer })),
    items: items.map((i) => ({
      code: i.code,
      name: i.description ? `${i.name}: ${i.description}` : i.name,
      treatment: i.treatment,
      cash: i.cash,
      amount: i.amount,
      ...(i.loan_id !== null && i.loan_balance_after !== null ? { loan: { id: i.loan_id, balanceAfter: i.loan_balance_after } } : {}),
    })),
    // The repo always counts the paystub itself; the fallback only keeps the types total.
    ytd: ytd
      ? {
          year: Number(row.pay_period_end.slice(0, 4)),
          paystubs: ytd.paystubs,
          gross: ytd.gross,
          tax: ytd.tax,
          pension: ytd.pension,
          net: ytd.net,
          opening:
            ytd.opening_gross === null
              ? undefined
              : { gross: ytd.opening_gross, tax: ytd.opening_tax ?? '0', pension: ytd.opening_pension ?? '0' },
        }
      : {
          year: Number(row.pay_period_end.slice(0, 4)),
          paystubs: 1,
          gross: row.gross_pay,
          tax: row.tax_withheld,
          pension: row.pension_contribution,
          net: row.net_pay,
        },
  };
}

export function createPayslipsService(deps: { db: Db; payslipLinks: PayslipLinks }) {
  const { db } = deps;

  /** The payslip sources of a batch of rows: two queries (records, year to date) whatever the batch size. */
  async function sources(companyId: number, rows: PayslipRow[]): Promise<PayslipSource[]> {
    const ids = rows.map((row) => row.id);
    const [records, items, ytd] = await Promise.all([
      payslipsRepo.records(db, companyId, ids),
      payslipsRepo.items(db, companyId, ids),
      payslipsRepo.ytd(db, companyId, ids),
    ]);
    const recordsOf = new Map<number, RecordRow[]>();
    for (const record of records) recordsOf.set(record.paystub_id, [...(recordsOf.get(record.paystub_id) ?? []), record]);
    const itemsOf = new Map<number, ItemRow[]>();
    for (const item of items) itemsOf.set(item.paystub_id, [...(itemsOf.get(item.paystub_id) ?? []), item]);
    const ytdOf = new Map(ytd.map((y) => [y.paystub_id, y]));
    return rows.map((row) => source(row, recordsOf.get(row.id) ?? [], itemsOf.get(row.id) ?? [], ytdOf.get(row.id)));
  }

  async function pdfOf(row: PayslipRow) {
    const { renderPayslip } = await pdfRenderer();
    const [payslipSource] = await sources(row.company_id, [row]);
    const layout = payslipLayout(payslipSource);
    return { filename: layout.filename, pdf: await renderPayslip(layout) };
  }

  /**
   * Writes the run's payslips into the ZIP one at a time: each PDF is rendered, added, and the next
   * one rendered only once the client has read what came before (payslips.zip.view.ts), so at most
   * one page of rows and one PDF are in memory.
   */
  async function fill(zip: ZipStream, companyId: number, runId: string, mtime: Date): Promise<void> {
    const { renderPayslip } = await pdfRenderer();
    const names = new Set<string>();
    let afterId = 0;
    for (;;) {
      const rows = await payslipsRepo.runPage(db, companyId, runId, afterId, ZIP_PAGE);
      if (rows.length === 0 || zip.signal.aborted) break;
      const batch = await sources(companyId, rows);
      for (let i = 0; i < rows.length; i++) {
        const layout = payslipLayout(batch[i]);
        const pdf = await renderPayslip(layout);
        // Two paystubs of one employee ending the same day (different starts) would share a name.
        const name = names.has(layout.filename) ? layout.filename.replace(/\.pdf$/, `-${rows[i].id}.pdf`) : layout.filename;
        names.add(name);
        // A client that goes away aborts the wait: stop (and free this run's rows) instead of waiting forever.
        await zip.add(name, pdf, mtime);
      }
      afterId = rows[rows.length - 1].id;
    }
  }

  return {
    async payslip(companyId: number, paystubId: number | null) {
      const row = paystubId === null ? undefined : await payslipsRepo.paystub(db, companyId, paystubId);
      if (!row) throw notFound(PAYSTUB_NOT_FOUND);
      return pdfOf(row);
    },

    /** 404 before any byte when the run is not the company's; then the ZIP as a stream. */
    async runZip(companyId: number, runId: string, notFoundMessage: string): Promise<{ filename: string; stream: Readable }> {
      if (!(await payslipsRepo.runExists(db, companyId, runId))) throw notFound(notFoundMessage);
      const zip = zipStream();
      fill(zip, companyId, runId, new Date()).then(
        () => zip.end(),
        (error: unknown) => zip.fail(error),
      );
      return { filename: `payslips-${runId}.zip`, stream: zip.output };
    },

    /** The payslip a signed link names, or why not (never another paystub's). */
    async byToken(token: string, now: Date = new Date()) {
      const check = await deps.payslipLinks.check(db, token, now);
      if (!check.ok) return { state: check.reason } as const;
      const row = await payslipsRepo.paystubById(db, check.id);
      if (!row) return { state: 'invalid' } as const;
      return { state: 'ok', ...(await pdfOf(row)) } as const;
    },
  };
}

export type PayslipsService = ReturnType<typeof createPayslipsService>;
