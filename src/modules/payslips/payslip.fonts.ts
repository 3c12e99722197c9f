// DejaVu Sans for payslips, parsed once per process and shared by every document, with two caches
// that pdfkit keeps per document otherwise. Measured on the payslip (CPU time per page): shaping
// words (fontkit's OpenType layout) and encoding the embedded subset were about 80 % of the work.
//
// pdfkit accepts any object with fontkit's Font interface; the one handed to it is the parsed font
// with `layout` and `createSubset` wrapped:
//   - layout: the shaped run of a word is cached by its text (the labels, names and digits of a
//     run's payslips repeat). pdfkit scales a run's positions in place, so each call gets fresh copies.
//   - createSubset: the encoded font program is cached by the list of glyphs included. Each document
//     first includes the same common characters in the same order (`primeFont`), so every payslip
//     whose text stays within them embeds byte-identical font data, encoded once per process.
// Both caches are bounded (cleared when full) and hold only font data, never a payslip's content.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

// Resolved from this file's location through node's module lookup, so the same code finds the
// package from src/ (tsx, tests) and from dist/builds/<hash>/ (the esbuild output): both sit under
// the checkout whose node_modules holds dejavu-fonts-ttf.
const here = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(here.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

// The fontkit that pdfkit itself loads (resolved from pdfkit's own location): the parsed font is
// handed to pdfkit, so it must come from the version pdfkit was built against.
interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}
interface FontkitFont {
  layout(text: string, features?: unknown): { glyphs: Glyph[]; positions: Position[] };
  createSubset(): Subset;
}
const fontkit = createRequire(here.resolve('pdfkit'))('fontkit') as { create(buffer: Buffer): FontkitFont };
const MAX_RUNS = 4_000;
const MAX_SUBSETS = 64;
/** The deflated bytes of each cached font program (keyed by the program's own bytes, so they go with it). */
const deflated = new WeakMap<Uint8Array, Buffer>();
const isProgram = new WeakSet<Uint8Array>();

/** What every payslip may print: ASCII, the naira sign and the punctuation the layout uses. */
export const COMMON_TEXT = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')}₦•–−—`;

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** The shape pdfkit reads of a glyph run; advanceWidth sums the (possibly rescaled) positions, as fontkit's does. */
class Run {
  constructor(
    readonly glyphs: Glyph[],
    readonly positions: Position[],
  ) {}
  get advanceWidth(): number {
    let width = 0;
    for (const position of this.positions) width += position.xAdvance;
    return width;
  }
}

const copy = (p: Position): Position => ({ xAdvance: p.xAdvance, yAdvance: p.yAdvance, xOffset: p.xOffset, yOffset: p.yOffset });

interface Subset {
  glyphs: number[];
  includeGlyph(glyph: number | Glyph): number;
  encode(): Uint8Array;
  cff?: unknown;
}

function cachingFont(font: FontkitFont): FontkitFont {
  const runs = new Map<string, { glyphs: Glyph[]; positions: Position[] }>();
  const programs = new Map<string, Uint8Array>();
  const wrapped = Object.create(font) as FontkitFont;
  Object.assign(wrapped, {
    layout(text: string, features?: unknown) {
      if (features !== undefined) return font.layout(text, features);
      let run = runs.get(text);
      if (!run) {
        const shaped = font.layout(text);
        run = { glyphs: shaped.glyphs, positions: shaped.positions.map(copy) };
        if (runs.size >= MAX_RUNS) runs.clear();
        runs.set(text, run);
      }
      return new Run(run.glyphs, run.positions.map(copy));
    },
    createSubset(): Subset {
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
    },
  });
  return wrapped;
}

interface Reference {
  compress: boolean;
  data: Record<string, unknown>;
  end(chunk?: Uint8Array | string): void;
}

/**
 * Makes `doc` embed a cached font program deflated once per process instead of once per document
 * (deflating the two programs was about a tenth of a page's time). pdfkit ends the font file's
 * stream with the bytes `createSubset().encode()` returned, so a stream ended with a cached
 * program is written with its stored deflated bytes and the same /Filter pdfkit would have set;
 * every other stream is left to pdfkit.
 */
export function shareFontStreams(doc: { ref(data?: Record<string, unknown>): Reference }): void {
  const ref = doc.ref.bind(doc);
  doc.ref = (data) => {
    const reference = ref(data);
    const end = reference.end.bind(reference);
    reference.end = (chunk) => {
      if (!reference.compress || !(chunk instanceof Uint8Array)) return end(chunk);
      let packed = deflated.get(chunk);
      if (!packed && isProgram.has(chunk)) {
        packed = zlib.deflateSync(chunk);
        deflated.set(chunk, packed);
      }
      if (!packed) return end(chunk);
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
