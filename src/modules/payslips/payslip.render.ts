// Draws a payslip (payslip.layout.ts decides every line) on one A4 page with pdfkit. DejaVu Sans is
// embedded (subset) because the PDF standard fonts have no naira sign. The font files are read once
// per process and shared (payslip.fonts.ts says how, and why it is fast enough for a whole run).
import PDFDocument from 'pdfkit';
import { COMMON_TEXT, payslipFonts } from './payslip.fonts.js';
import type { Payslip, PayslipLine } from './payslip.layout.js';

const PAGE = { width: 595.28, height: 841.89, margin: 42 };
const WIDTH = PAGE.width - 2 * PAGE.margin;
const GAP = 18;
const COLUMN = (WIDTH - GAP) / 2;
const INK = '#1f2933';
const MUTED = '#616e7c';
const RULE = '#cbd2d9';
const ACCENT = '#0b6e4f';
const BAND = '#eef5f1';

type Doc = PDFKit.PDFDocument;
/** Every string fits its place (payslip.layout.ts shortens what might not): no line wrapping to compute. */
const ONE_LINE = { lineBreak: false } as const;

function heading(doc: Doc, text: string, x: number, y: number, width: number): number {
  doc.font('bold').fontSize(9.5).fillColor(ACCENT).text(text.toUpperCase(), x, y, { width, characterSpacing: 0.4 });
  const below = y + 14;
  doc
    .moveTo(x, below)
    .lineTo(x + width, below)
    .lineWidth(0.8)
    .strokeColor(ACCENT)
    .stroke();
  return below + 6;
}

function pairs(doc: Doc, rows: [string, string][], x: number, y: number, width: number): number {
  let top = y;
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(8.5).fillColor(MUTED).text(label, x, top, ONE_LINE);
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(INK)
      .text(value, x + 80, top - 0.5, { ...ONE_LINE, width: width - 80 });
    top += 14.5;
  }
  return top;
}

function amounts(doc: Doc, lines: PayslipLine[], x: number, y: number, width: number): number {
  let top = y;
  for (const line of lines) {
    if (line.total) {
      doc
        .moveTo(x, top - 2)
        .lineTo(x + width, top - 2)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      top += 2;
    }
    const font = line.total ? 'bold' : 'regular';
    doc.font(font).fontSize(8.8).fillColor(INK).text(line.label, x, top, ONE_LINE);
    // Right-aligned by hand: pdfkit's align option runs its line wrapper, measured at about a third of a page's time.
    doc.text(line.amount, x + width - doc.widthOfString(line.amount), top, ONE_LINE);
    top += 15;
  }
  return top;
}

function header(doc: Doc, slip: Payslip): number {
  const { margin } = PAGE;
  // No company logo is stored (companies have no logo field): a badge with the initials stands in.
  doc.roundedRect(margin, margin, 44, 44, 6).fill(ACCENT);
  doc
    .font('bold')
    .fontSize(16)
    .fillColor('#ffffff')
    .text(slip.company.initials, margin, margin + 13, { width: 44, align: 'center' });
  doc
    .font('bold')
    .fontSize(15)
    .fillColor(INK)
    .text(slip.company.name, margin + 56, margin + 1, { width: WIDTH - 56 - 150 });
  let y = doc.y + 1;
  for (const part of slip.company.addressLines) {
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(part, margin + 56, y, { width: WIDTH - 56 - 150 });
    y = doc.y;
  }
  doc
    .font('bold')
    .fontSize(22)
    .fillColor(ACCENT)
    .text(slip.title.toUpperCase(), margin + WIDTH - 150, margin, { width: 150, align: 'right' });
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(slip.period[0][1], margin + WIDTH - 150, margin + 28, { width: 150, align: 'right' });
  const bottom = Math.max(y, margin + 50) + 10;
  doc
    .moveTo(margin, bottom)
    .lineTo(margin + WIDTH, bottom)
    .lineWidth(1.5)
    .strokeColor(ACCENT)
    .stroke();
  return bottom + 16;
}

function draw(doc: Doc, slip: Payslip): void {
  const left = PAGE.margin;
  const right = PAGE.margin + COLUMN + GAP;
  let y = header(doc, slip);

  const employeeEnd = pairs(doc, slip.employee, left, heading(doc, 'Employee', left, y, COLUMN), COLUMN);
  const periodEnd = pairs(doc, slip.period, right, heading(doc, 'Pay period', right, y, COLUMN), COLUMN);
  y = Math.max(employeeEnd, periodEnd) + 14;

  const earningsEnd = amounts(doc, slip.earnings, left, heading(doc, 'Earnings', left, y, COLUMN), COLUMN);
  const deductionsEnd = amounts(doc, slip.deductions, right, heading(doc, 'Deductions', right, y, COLUMN), COLUMN);
  y = Math.max(earningsEnd, deductionsEnd) + 12;

  doc.rect(left, y, WIDTH, 38).fill(BAND);
  doc.rect(left, y, 4, 38).fill(ACCENT);
  doc
    .font('bold')
    .fontSize(12)
    .fillColor(INK)
    .text('Net pay', left + 16, y + 12, { width: 200 });
  doc
    .font('bold')
    .fontSize(16)
    .fillColor(ACCENT)
    .text(slip.netPay, left + WIDTH - 260, y + 10, { width: 248, align: 'right' });
  y += 38 + 20;

  const employerEnd = amounts(doc, slip.employer, left, heading(doc, 'Employer contributions', left, y, COLUMN), COLUMN);
  const ytdEnd = amounts(doc, slip.ytd, right, heading(doc, slip.ytdTitle, right, y, COLUMN), COLUMN);
  y = Math.max(employerEnd, ytdEnd) + 20;

  doc
    .font('regular')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(slip.footer, left, Math.max(y, PAGE.height - PAGE.margin - 40), { width: WIDTH });
}

/**
 * Includes the common characters in the document's subset of `font`, in a fixed order, without
 * drawing anything (pdfkit's EmbeddedFont.encode, which also records their widths and Unicode
 * values), so that documents share one encoded font program (payslip.fonts.ts).
 */
function prime(doc: Doc, font: string): void {
  doc.font(font);
  (doc as unknown as { _font: { encode(text: string): unknown } })._font.encode(COMMON_TEXT);
}

/** The payslip as PDF bytes (one A4 page). */
export function renderPayslip(slip: Payslip): Promise<Buffer> {
  const { regular, bold } = payslipFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    // No default font: pdfkit would load Helvetica, then compare fonts by their name tables.
    font: null as unknown as string,
    info: { Title: `${slip.title}, ${slip.employee[0][1]}, ${slip.period[0][1]}`, Author: slip.company.name, Creator: 'Payroll' },
  });
  doc.registerFont('regular', regular as unknown as string);
  doc.registerFont('bold', bold as unknown as string);
  prime(doc, 'bold');
  prime(doc, 'regular');
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc, slip);
  doc.end();
  return done;
}
