// The libraries only some requests need (spreadsheets, PDFs, SMTP) are not loaded when the server
// starts (docs/architecture.md, "Heavy libraries load at first use"): the compiled app is imported
// in a fresh process, as `node server.js` imports it, and the packages it loaded are listed. Then
// each library is asked for as the app asks for it, to show that the list would have caught it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { SERVER_SCRIPT } from '../helpers/server-build.js';

const LAZY = ['exceljs', 'pdfkit', 'fontkit', 'nodemailer'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-use-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A module hook that writes every URL the ESM loader resolves to a file (pdfkit, fontkit and
 * nodemailer are loaded as ES modules); CommonJS modules required from CommonJS (exceljs) are in
 * require.cache instead.
 */
const HOOKS = `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(process.env.RESOLVED_LOG, resolved.url + '\\n');
  return resolved;
}`;

/** Imports the compiled app (then runs `after`) in a new node; the packages it loaded, by name. */
function packagesLoaded(name: string, after = ''): Promise<string[]> {
  const app = pathToFileURL(path.join(path.dirname(SERVER_SCRIPT), 'app.js')).href;
  const log = path.join(dir, `${name}.log`);
  const script = `
    import fs from 'node:fs';
    import { createRequire, register } from 'node:module';
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});
    await import(${JSON.stringify(app)});
    ${after}
    const files = [...Object.keys(createRequire(import.meta.url).cache), ...fs.readFileSync(process.env.RESOLVED_LOG, 'utf8').split('\\n')];
    const names = new Set(files.map((file) => file.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/)?.[1]).filter(Boolean));
    console.log(JSON.stringify([...names]));`;
  const options = { cwd: path.dirname(SERVER_SCRIPT), timeout: 60_000, env: { ...process.env, RESOLVED_LOG: log } };
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], options, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

test('starting the app loads none of exceljs, pdfkit (with fontkit) and nodemailer; each loads once asked for', async () => {
  const [atStart, afterUse] = await Promise.all([
    packagesLoaded('start'),
    packagesLoaded('use', "await import('exceljs'); await import('pdfkit'); await import('nodemailer');"),
  ]);
  // The list sees what the app does load at start, ES modules (typebox) and CommonJS (fastify) alike.
  expect(atStart).toEqual(expect.arrayContaining(['fastify', 'typebox', 'pg']));
  for (const name of LAZY) expect(atStart, name).not.toContain(name);
  for (const name of LAZY) expect(afterUse, name).toContain(name);
}, 120_000);
