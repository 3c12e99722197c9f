// DejaVu Sans for payslips, parsed once per process and shared by every document, with the caches
// that pdfkit keeps per document otherwise. Measured on the payslip (CPU time per page): shaping
// words (fontkit's OpenType layout), encoding and deflating the embedded subset, and writing the
// page's content were most of the work.
//
//   - Shaped words: pdfkit's EmbeddedFont caches each word's shaped and scaled run in its
//     `layoutCache`, a plain object per document. Every document of a process gets the same object
//     (one per font: `shareLayouts`), so a run's labels, names and digits are shaped once. pdfkit
//     never changes a cached run (it concatenates copies of the arrays and reads the positions).
//     The cache is replaced by an empty one every LAYOUT_DOCUMENTS documents, which bounds it.
//   - Font programs: the encoded subset is cached by the list of glyphs included. Each document
//     first includes the same common characters in the same order (`prime` in payslip.render.view.ts),
//     so every payslip whose text stays within them embeds byte-identical font data, encoded and
//     deflated once per process; the ToUnicode map that goes with it is deflated once too.
//   - Streams: see `tuneStreams`.
// All caches are bounded and hold only font data, never a payslip's content.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

// Resolved from this file's location through node's module lookup, so the same code finds the
// package from src/ (tsx, tests) and from dist/builds/<hash>/ (the esbuild output): both sit under
// the checkout whose node_modules holds dejavu-fonts-ttf.
const here = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(here.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}
interface Subset {
  glyphs: number[];
  includeGlyph(glyph: number | Glyph): number;
  encode(): Uint8Array;
  cff?: unknown;
}
interface FontkitFont {
  createSubset(): Subset;
}
// The fontkit that pdfkit itself loads (resolved from pdfkit's own location): the parsed font is
// handed to pdfkit, so it must come from the version pdfkit was built against.
const fontkit = createRequire(here.resolve('pdfkit'))('fontkit') as { create(buffer: Buffer): FontkitFont };
const MAX_SUBSETS = 64;
const MAX_MAPS = 64;
/** Documents that share one cache of shaped words before it starts again empty (a run's labels are shaped again once per this many). */
const LAYOUT_DOCUMENTS = 200;
/** The deflated bytes of each cached font program (keyed by the program's own bytes, so they go with it). */
const deflated = new WeakMap<Uint8Array, Buffer>();
const isProgram = new WeakSet<Uint8Array>();
/** Deflated ToUnicode maps by their text (identical for documents whose subsets are). */
const deflatedMaps = new Map<string, Buffer>();

/** What every payslip may print: ASCII, the naira sign and the punctuation the layout uses. */
export const COMMON_TEXT = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')}₦•–−—`;

/**
 * Deflate level of a page's content (the one stream that differs between payslips). Level 1 against
 * zlib's default 6 on the payslip: about half the CPU, 3 % larger stream (docs/benchmarks-history.md, "Payslips").
 */
export const CONTENT_LEVEL = 1;

function cachingFont(font: FontkitFont): FontkitFont {
  const programs = new Map<string, Uint8Array>();
  const wrapped = Object.create(font) as FontkitFont;
  wrapped.createSubset = (): Subset => {
    const inner = font.createSubset();
    return {
      get glyphs() {
        return inner.glyphs;
      },
      cff: inner.cff,
      includeGlyph: (glyph) => inner.includeGlyph(glyph),
      encode() {
        const key = inner.glyphs.join(',');
        let program = programs.get(key);
        if (!program) {
          program = inner.encode();
          isProgram.add(program);
          if (programs.size >= MAX_SUBSETS) programs.clear();
          programs.set(key, program);
        }
        return program;
      },
    };
  };
  return wrapped;
}

const layouts = new Map<string, object>();
let layoutDocuments = 0;

/** Counts a document for LAYOUT_DOCUMENTS (once per document, before `shareLayouts`). */
export function startDocument(): void {
  if (++layoutDocuments >= LAYOUT_DOCUMENTS) {
    layoutDocuments = 0;
    layouts.clear();
  }
}

/** Gives pdfkit's EmbeddedFont `font` (registered as `name`) the process's cache of shaped words. */
export function shareLayouts(font: { layoutCache?: object }, name: string): void {
  let cache = layouts.get(name);
  if (!cache) {
    cache = Object.create(null) as object;
    layouts.set(name, cache);
  }
  font.layoutCache = cache;
}

interface Reference {
  compress: boolean;
  data: Record<string, unknown>;
  write(chunk: Uint8Array | string): void;
  end(chunk?: Uint8Array | string): void;
}

function deflatedMap(text: string): Buffer {
  let packed = deflatedMaps.get(text);
  if (!packed) {
    packed = zlib.deflateSync(Buffer.from(text, 'latin1'));
    if (deflatedMaps.size >= MAX_MAPS) deflatedMaps.clear();
    deflatedMaps.set(text, packed);
  }
  return packed;
}

/**
 * Changes how `doc` writes its streams, not what they hold:
 *   - text written to a stream (a page's operators, one call each) is kept as one string and
 *     converted to bytes once at the end (pdfkit converts each operator to its own Uint8Array and
 *     concatenates them; its conversion keeps the low byte of each character, as latin1 does);
 *   - a stream ended with a cached font program, or with a ToUnicode map, is written with bytes
 *     deflated once per process;
 *   - any other compressed stream (the page's content) is deflated at CONTENT_LEVEL.
 * Each stream keeps the /Filter pdfkit would have set (FlateDecode), so readers see the same PDF.
 */
export function tuneStreams(doc: { ref(data?: Record<string, unknown>): Reference }): void {
  const ref = doc.ref.bind(doc);
  doc.ref = (data) => {
    const reference = ref(data);
    const write = reference.write.bind(reference);
    const end = reference.end.bind(reference);
    let text = '';
    let binary = false;
    const flushText = () => {
      if (text) write(Buffer.from(text, 'latin1'));
      text = '';
    };
    reference.write = (chunk) => {
      if (typeof chunk === 'string') {
        text += `${chunk}\n`;
        return;
      }
      flushText();
      binary = true;
      write(chunk);
    };
    reference.end = (chunk) => {
      if (!reference.compress || binary) {
        flushText();
        return end(chunk);
      }
      let packed: Buffer | undefined;
      if (chunk instanceof Uint8Array && !text) {
        packed = deflated.get(chunk);
        if (!packed && isProgram.has(chunk)) {
          packed = zlib.deflateSync(chunk);
          deflated.set(chunk, packed);
        }
      } else if (typeof chunk === 'string' && !text && chunk.startsWith('/CIDInit')) {
        packed = deflatedMap(`${chunk}\n`);
      }
      if (!packed) {
        if (chunk !== undefined) reference.write(chunk);
        if (!text) return end();
        packed = zlib.deflateSync(Buffer.from(text, 'latin1'), { level: CONTENT_LEVEL });
        text = '';
      }
      reference.compress = false;
      reference.data.Filter = 'FlateDecode';
      end(packed);
    };
    return reference;
  };
}

let fonts: { regular: FontkitFont; bold: FontkitFont } | undefined;

export function payslipFonts() {
  fonts ??= {
    regular: cachingFont(fontkit.create(fs.readFileSync(path.join(FONT_DIR, 'DejaVuSans.ttf')))),
    bold: cachingFont(fontkit.create(fs.readFileSync(path.join(FONT_DIR, 'DejaVuSans-Bold.ttf')))),
  };
  return fonts;
}
