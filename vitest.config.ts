import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/helpers/chromium-launch.js';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          // *.browser.test.ts draw with WebGL: Chromium only.
          exclude: ['test/**/*.browser.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        // cross-origin isolated, so that SharedArrayBuffer and createSolver({ threads }) run on the test page
        server: { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
        test: {
          name: 'chromium',
          // *.node.test.ts read files or spawn processes: Node only.
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.node.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
