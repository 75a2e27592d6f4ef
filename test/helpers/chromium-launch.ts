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
/**
 * What Chromium adds for WebGPU (the webgpu test project and benchmark): without a GPU, headless
 * Chromium exposes WebGPU through SwiftShader (adapter "google swiftshader", software) only with
 * this flag, and only to a secure origin (http://localhost is one).
 */
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu'];
