// Draws a payslip (payslip.layout.planner.ts decides every line) on one A4 page with pdfkit. DejaVu Sans is
// embedded (subset) because the PDF standard fonts have no naira sign. The font files are read once
// per process and shared (payslip.fonts.view.ts says how, and why it is fast enough for a whole run).
import PDFDocument from 'pdfkit';
import { COMMON_TEXT, payslipFonts, shareLayouts, startDocument, tuneStreams } from './payslip.fonts.view.js';
import type { Payslip, PayslipLine } from './payslip.types.js';

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
/**
 * Every string fits its place (payslip.layout.planner.ts shortens what might not), so nothing is wrapped:
 * pdfkit runs its line wrapper whenever a width or an alignment is given (measured at about a
 * third of a page's time), so text is placed at computed positions with no width.
 */
const ONE_LINE = { lineBreak: false } as const;

function write(doc: Doc, text: string, x: number, y: number, font: 'regular' | 'bold', size: number, color: string): void {
  doc.font(font).fontSize(size).fillColor(color).text(text, x, y, ONE_LINE);
}

/** Right-aligned at `right`. */
function writeRight(doc: Doc, text: string, right: number, y: number, font: 'regular' | 'bold', size: number, color: string): void {
  doc.font(font).fontSize(size);
  doc.fillColor(color).text(text, right - doc.widthOfString(text), y, ONE_LINE);
}

function rule(doc: Doc, x: number, y: number, width: number, weight: number, color: string): void {
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(weight)
    .strokeColor(color)
    .stroke();
}

function heading(doc: Doc, text: string, x: number, y: number, width: number): number {
  doc
    .font('bold')
    .fontSize(9.5)
    .fillColor(ACCENT)
    .text(text.toUpperCase(), x, y, { ...ONE_LINE, characterSpacing: 0.4 });
  rule(doc, x, y + 14, width, 0.8, ACCENT);
  return y + 20;
}

function pairs(doc: Doc, rows: [string, string][], x: number, y: number): number {
  let top = y;
  for (const [label, value] of rows) {
    write(doc, label, x, top, 'regular', 8.5, MUTED);
    write(doc, value, x + 80, top - 0.5, 'regular', 9, INK);
    top += 14.5;
  }
  return top;
}

function amounts(doc: Doc, lines: PayslipLine[], x: number, y: number, width: number): number {
  let top = y;
  for (const line of lines) {
    if (line.total) {
      rule(doc, x, top - 2, width, 0.5, RULE);
      top += 2;
    }
    const font = line.total ? 'bold' : 'regular';
    write(doc, line.label, x, top, font, 8.8, INK);
    writeRight(doc, line.amount, x + width, top, font, 8.8, INK);
    top += 15;
  }
  return top;
}

function header(doc: Doc, slip: Payslip): number {
  const { margin } = PAGE;
  const right = margin + WIDTH;
  // No company logo is stored (companies have no logo field): a badge with the initials stands in.
  doc.roundedRect(margin, margin, 44, 44, 6).fill(ACCENT);
  doc.font('bold').fontSize(16);
  write(doc, slip.company.initials, margin + 22 - doc.widthOfString(slip.company.initials) / 2, margin + 13, 'bold', 16, '#ffffff');
  write(doc, slip.company.name, margin + 56, margin + 1, 'bold', 15, INK);
  let y = margin + 21;
  for (const part of slip.company.addressLines) {
    write(doc, part, margin + 56, y, 'regular', 8.5, MUTED);
    y += 11;
  }
  writeRight(doc, slip.title.toUpperCase(), right, margin, 'bold', 22, ACCENT);
  writeRight(doc, slip.period[0][1], right, margin + 28, 'regular', 8.5, MUTED);
  const bottom = Math.max(y, margin + 50) + 10;
  rule(doc, margin, bottom, WIDTH, 1.5, ACCENT);
  return bottom + 16;
}

function draw(doc: Doc, slip: Payslip): void {
  const left = PAGE.margin;
  const right = PAGE.margin + COLUMN + GAP;
  let y = header(doc, slip);

  const employeeEnd = pairs(doc, slip.employee, left, heading(doc, 'Employee', left, y, COLUMN));
  const periodEnd = pairs(doc, slip.period, right, heading(doc, 'Pay period', right, y, COLUMN));
  y = Math.max(employeeEnd, periodEnd) + 14;

  const earningsEnd = amounts(doc, slip.earnings, left, heading(doc, 'Earnings', left, y, COLUMN), COLUMN);
  const deductionsEnd = amounts(doc, slip.deductions, right, heading(doc, 'Deductions', right, y, COLUMN), COLUMN);
  y = Math.max(earningsEnd, deductionsEnd) + 12;

  doc.rect(left, y, WIDTH, 38).fill(BAND);
  doc.rect(left, y, 4, 38).fill(ACCENT);
  write(doc, 'Net pay', left + 16, y + 12, 'bold', 12, INK);
  writeRight(doc, slip.netPay, left + WIDTH - 12, y + 10, 'bold', 16, ACCENT);
  y += 38 + 20;

  let employerEnd = amounts(doc, slip.employer, left, heading(doc, 'Employer contributions', left, y, COLUMN), COLUMN);
  if (slip.loans.length > 0)
    employerEnd = amounts(doc, slip.loans, left, heading(doc, 'Loans and advances', left, employerEnd + 14, COLUMN), COLUMN);
  const ytdEnd = amounts(doc, slip.ytd, right, heading(doc, slip.ytdTitle, right, y, COLUMN), COLUMN);
  y = Math.max(employerEnd, ytdEnd) + 20;

  // The one paragraph: wrapped by pdfkit.
  doc
    .font('regular')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(slip.footer, left, Math.max(y, PAGE.height - PAGE.margin - 40), { width: WIDTH });
}

/**
 * Includes the common characters in the document's subset of `font`, in a fixed order, without
 * drawing anything (pdfkit's EmbeddedFont.encode, which also records their widths and Unicode
 * values), so that documents share one encoded font program (payslip.fonts.view.ts).
 */
function prime(doc: Doc, font: string): void {
  doc.font(font);
  const embedded = (doc as unknown as { _font: { encode(text: string): unknown; layoutCache?: object } })._font;
  shareLayouts(embedded, font);
  embedded.encode(COMMON_TEXT);
}

/**
 * A PDFDocument that keeps what it writes instead of pushing it through its Readable stream: pdfkit
 * writes the file as many small pieces (each object, each xref line), each converted to its own
 * Uint8Array and pushed as a chunk. Here the pieces are kept as they come and copied once into one
 * Buffer of the file's size, allocated outside node's pool of small buffers: a small Buffer taken
 * from that pool would keep its whole 8 KB slab alive for as long as anything else in the slab is
 * (the ZIP writer kept each entry's file name, a pooled Buffer, until the ZIP ended: measured +17 MB by 2,200
 * payslips when each file name landed in a slab of its own). The offsets pdfkit counts for the xref
 * table are kept as its own _write keeps them (one byte per character, plus the newline it appends).
 * The fonts, the page and the info dictionary end synchronously (nothing is loaded from a file or
 * a URL), so the document is complete when end() returns.
 */
class PayslipDocument extends PDFDocument {
  // Declared, not initialised: the constructor already writes (the header) before field initialisers would run.
  declare private parts: (Uint8Array | string)[] | undefined;
  declare _offset: number;
  declare _waiting: number;

  _write(data: Uint8Array | string): void {
    this.parts ??= [];
    if (data instanceof Uint8Array) {
      this.parts.push(data);
      this._offset += data.length;
      return;
    }
    const line = `${data}\n`;
    this.parts.push(line);
    this._offset += line.length;
  }

  /** The whole file, once end() has finished it. */
  bytes(): Buffer {
    if (this._waiting !== 0) throw new Error('The payslip PDF was not finished synchronously.');
    const file = Buffer.allocUnsafeSlow(this._offset);
    let at = 0;
    for (const part of this.parts ?? []) {
      if (typeof part === 'string') at += file.write(part, at, 'latin1');
      else {
        file.set(part, at);
        at += part.length;
      }
    }
    if (at !== this._offset) throw new Error(`The payslip PDF is ${at} bytes, pdfkit counted ${this._offset}.`);
    return file;
  }
}

/** The payslip as PDF bytes (one A4 page). */
export function renderPayslip(slip: Payslip): Buffer {
  const { regular, bold } = payslipFonts();
  const doc = new PayslipDocument({
    size: 'A4',
    margin: PAGE.margin,
    // No default font: pdfkit would load Helvetica, then compare fonts by their name tables.
    font: null as unknown as string,
    info: { Title: `${slip.title}, ${slip.employee[0][1]}, ${slip.period[0][1]}`, Author: slip.company.name, Creator: 'Payroll' },
    // The page is added once tuneStreams has wrapped `ref`, so that its content stream is tuned too.
    autoFirstPage: false,
  });
  startDocument();
  tuneStreams(doc as unknown as Parameters<typeof tuneStreams>[0]);
  doc.addPage();
  doc.registerFont('regular', regular as unknown as string);
  doc.registerFont('bold', bold as unknown as string);
  prime(doc, 'bold');
  prime(doc, 'regular');
  draw(doc, slip);
  doc.end();
  return doc.bytes();
}
