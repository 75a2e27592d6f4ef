import { it } from 'vitest';
import { launchChromium, openWatchedPage } from '../test/helpers/chromium.js';
it('dev', async () => {
  const browser = await launchChromium();
  for (const name of ['index', 'springs', 'bench', 'skeleton']) {
    const { page, errors } = await openWatchedPage(browser);
    await page.goto(`http://localhost:5199/${name}.html`);
    const ok = await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 }).then(() => true, () => false);
    await page.waitForTimeout(1500);
    console.log(name, ok, errors, await page.evaluate(() => document.querySelector('.error')?.textContent ?? ''));
    await page.context().close();
  }
  await browser.close();
}, 120000);
