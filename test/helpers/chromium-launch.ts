/**
 * The Chromium binary and flags every browser test uses (the vitest chromium project and the
 * Playwright-driven Node tests): Debian's /usr/bin/chromium, headless as root, with the
 * background network features off (this machine has no network but the package registries).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
