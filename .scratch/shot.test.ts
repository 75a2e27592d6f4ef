import { build } from 'vite';
import { it } from 'vitest';
import { launchChromium, openWatchedPage } from '../test/helpers/chromium.js';
import { startStaticServer } from '../test/helpers/static-server.js';
it('shot', async () => {
  const out = '/tmp/demo-out';
  const t = performance.now();
  await build({ configFile: 'demo/site/vite.config.ts', logLevel: 'warn', build: { outDir: out } });
  console.log('build ms', performance.now() - t);
  const server = await startStaticServer({ mounts: { '/': out } });
  const browser = await launchChromium();
  for (const name of (process.env.PAGES ?? 'index,springs,bench,skeleton').split(',')) {
    const { page, errors } = await openWatchedPage(browser, { width: 1300, height: 900 });
    await page.goto(`${server.url}${name}.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 }).catch(() => console.log('not ready', name));
    await page.waitForTimeout(name === 'bench' ? 6000 : 3000);
    await page.screenshot({ path: `/tmp/shot-${name}.png`, fullPage: true });
    console.log(name, errors);
    await page.context().close();
  }
  await browser.close();
  await server.close();
}, 120000);
