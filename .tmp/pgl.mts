import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from '/work/main/src/db/client.ts';
let t = performance.now();
const c = await PGlite.create(PGLITE_OPTIONS);
console.log('initdb', Math.round(performance.now() - t));
const img = await c.dumpDataDir('none');
await c.close();
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const d = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: img });
  console.log('from image', Math.round(performance.now() - t));
  t = performance.now();
  await d.close();
  console.log('close', Math.round(performance.now() - t));
}
console.log(JSON.stringify(PGLITE_OPTIONS));
