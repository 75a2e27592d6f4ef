/**
 * Headless Chromium for the Node-side browser tests (Playwright), launched like the vitest
 * browser project launches it, plus a page that records its console errors.
 */
import { chromium, type Browser, type Page } from 'playwright';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-launch.js';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  page: Page;
  /** Console messages of type 'error' and uncaught exceptions, as text, in order. */
  errors: string[];
  /** Console messages of type 'warning', as text, in order. */
  warnings: string[];
}

/** A new page (its own context) that records errors from the start; closing the context is the caller's. */
export async function openWatchedPage(browser: Browser, viewport = { width: 1200, height: 800 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  return { page, errors, warnings };
}
