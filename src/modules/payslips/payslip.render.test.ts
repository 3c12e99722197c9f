// The PDF bytes payslip.render.view.ts assembles itself (PayslipDocument keeps what pdfkit writes and
// copies it into one Buffer): every offset of the xref table must point at its object, for ASCII
// and non-ASCII text alike (pdfkit writes those as UTF-16 strings), and documents rendered one
// after another (sharing the process's word cache) must each be complete.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { payslipLayout } from './payslip.layout.planner.js';
import { renderPayslip } from './payslip.render.view.js';
import type { PayslipSource } from './payslip.types.js';

function source(firstName: string, company: string): PayslipSource {
  return {
    company: { name: company, address: '12 Marina Road\nLagos Island, Lagos' },
    employee: {
      firstName,
      lastName: 'Okafor',
      employeeId: 'ACME-0007',
      title: 'Accountant',
      department: null,
      bankName: 'Access Bank',
      accountNumber: '0123456789',
    },
    paystub: {
      payPeriodStart: '2026-01-01',
      payPeriodEnd: '2026-01-31',
      status: 'paid',
      transactionId: 'PR-1',
      paidOn: '2026-01-29',
      taxRegime: 'nta2025',
      payeState: { code: 'LA', name: 'Lagos' },
      taxableIncome: '1250000.00',
      basicPay: '500000.00',
      housingPay: '375000.00',
      transportPay: '250000.00',
      otherAllowances: '50000.00',
      reimbursements: '0.00',
      grossPay: '1175000.00',
      taxWithheld: '190123.45',
      pension: '90000.00',
      nhf: '12500.00',
      nhis: '0.00',
      netPay: '882376.55',
      employerPension: '112500.00',
      employerNhis: '0.00',
      employerCost: '1287500.00',
    },
    paymentDate: '2026-01-28',
    customContributions: [{ name: 'Coopérative ĀĒ', employee: '10000.00', employer: '0.00' }],
    ytd: { year: 2026, paystubs: 1, gross: '1175000.00', tax: '190123.45', pension: '90000.00', net: '882376.55' },
  };
}

/** Checks the xref table against the file and returns the inflated streams' text. */
function check(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.3\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? [];
  expect(Number(first)).toBe(0);
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  entries.forEach((entry, index) => {
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${index + 1} 0 obj`.length)).toBe(`${index + 1} 0 obj`);
  });
  const streams: string[] = [];
  for (const match of text.matchAll(/(?<!end)stream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    streams.push(zlib.inflateSync(pdf.subarray(start, text.indexOf('\nendstream', start))).toString('latin1'));
  }
  return streams.join('\n');
}

describe('renderPayslip', () => {
  it('writes a PDF whose xref offsets point at their objects, ASCII or not, document after document', () => {
    const ascii = renderPayslip(payslipLayout(source('Adaeze', 'Acme Nigeria Ltd')));
    const accented = renderPayslip(payslipLayout(source('Ṣadé', 'Ọ̀yọ́ Çompany — Ltd')));
    const again = renderPayslip(payslipLayout(source('Adaeze', 'Acme Nigeria Ltd')));
    for (const pdf of [ascii, accented, again]) check(pdf);
    // The same payslip twice gives the same page (only the creation date and file id differ).
    expect(check(again)).toBe(check(ascii));
    expect(check(accented)).not.toBe(check(ascii));
  });
});
