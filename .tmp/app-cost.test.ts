import { it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestDatabase } from '../test/helpers/database.js';
import { testConfig, createTestApp } from '../test/helpers/app.js';
it('costs', async () => {
  for (let i = 0; i < 4; i++) {
    let t = performance.now();
    const testDb = await createTestDatabase();
    const a = performance.now() - t;
    t = performance.now();
    const app = await buildApp({ config: testConfig(), database: testDb.database, logLevel: 'silent' });
    const b = performance.now() - t;
    t = performance.now();
    await app.ready();
    const c = performance.now() - t;
    t = performance.now();
    await app.close();
    await testDb.close();
    console.log(`db ${a.toFixed(0)} build ${b.toFixed(0)} ready ${c.toFixed(0)} close ${(performance.now() - t).toFixed(0)}`);
  }
}, 120000);
