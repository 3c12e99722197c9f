import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
const dist = '/work/main/node_modules/@electric-sql/pglite/dist/';
let t = performance.now();
const c = await PGlite.create({});
const img = await c.dumpDataDir('none');
await c.close();
t = performance.now();
const pgliteWasmModule = await WebAssembly.compile(fs.readFileSync(dist + 'pglite.wasm'));
const initdbWasmModule = await WebAssembly.compile(fs.readFileSync(dist + 'initdb.wasm'));
const fsBundle = new Blob([fs.readFileSync(dist + 'pglite.data')]);
console.log('compile', Math.round(performance.now() - t));
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const d = await PGlite.create({ loadDataDir: img });
  await d.query('select 1');
  console.log('plain from image', Math.round(performance.now() - t));
  await d.close();
  t = performance.now();
  const e = await PGlite.create({ loadDataDir: img, pgliteWasmModule, initdbWasmModule, fsBundle });
  await e.query('select 1');
  console.log('cached from image', Math.round(performance.now() - t));
  await e.close();
}
