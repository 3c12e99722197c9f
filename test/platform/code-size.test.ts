// The size rules of docs/architecture.md ("Design rules", 13, and "How to add a route"), checked:
// no production file of src/ over 300 lines, and no route registrar (a function of a `*.routes.ts`
// file) over 80 lines. Tests may be longer (a table of cases reads best in one place). Functions
// are found with the TypeScript parser, so a registrar is measured from its first line to its
// closing brace, comments and blank lines included, as a reader meets it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_FILE_LINES = 300;
const MAX_REGISTRAR_LINES = 80;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Every named function of a file (declarations, and arrow or function expressions bound to a name) with its length in lines. */
function functionLengths(file: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    let name: string | undefined;
    if (ts.isFunctionDeclaration(node) && node.name) name = node.name.text;
    else if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    )
      name = node.name.getText(source);
    if (name) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles('src').map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));

describe('code size', () => {
  it(`no production file of src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = files.filter(({ text }) => lineCount(text) > MAX_FILE_LINES).map(({ file, text }) => `${file}: ${lineCount(text)} lines`);
    expect(long).toEqual([]);
  });

  it(`no route registrar is over ${MAX_REGISTRAR_LINES} lines`, () => {
    const long = files
      .filter(({ file }) => file.endsWith('.routes.ts'))
      .flatMap(({ file, text }) => functionLengths(file, text).map((fn) => ({ file, ...fn })))
      .filter(({ lines }) => lines > MAX_REGISTRAR_LINES)
      .map(({ file, name, lines }) => `${file} ${name}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('the measure sees functions (it is not blind)', () => {
    const text = ['export function routes(app) {', ...Array.from({ length: 90 }, () => '  app.get();'), '}', 'const inner = () => 1;'].join(
      '\n',
    );
    expect(functionLengths('x.routes.ts', text)).toEqual([
      { name: 'routes', lines: 92 },
      { name: 'inner', lines: 1 },
    ]);
  });
});
