import { chromium } from 'playwright-core';
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless','--no-sandbox','--disable-gpu'] });
  const p = await b.newPage(); await p.goto('about:blank');
  const t2 = performance.now();
  await b.close();
  console.log('launch+page', Math.round(t2 - t), 'close', Math.round(performance.now() - t2));
}
