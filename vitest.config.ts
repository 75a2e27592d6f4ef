import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH, WEBGPU_ARGS } from './test/helpers/chromium-launch.js';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          // *.browser.test.ts draw with WebGL, *.webgpu.test.ts compute with WebGPU: Chromium only.
          exclude: ['test/**/*.browser.test.ts', 'test/**/*.webgpu.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        // cross-origin isolated, so that SharedArrayBuffer and createSolver({ threads }) run on the test page
        server: { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
        test: {
          name: 'chromium',
          // *.node.test.ts read files or spawn processes: Node only; *.webgpu.test.ts: the project below.
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.node.test.ts', 'test/**/*.webgpu.test.ts'],
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
      {
        // spring-solver/webgpu: Chromium with WebGPU (SwiftShader, software, on a machine without a
        // GPU), which needs --enable-unsafe-webgpu and a secure origin (the test page's localhost).
        // A project of its own, so that the other browser tests run as before without the flag.
        // three and three/webgpu are pre-bundled together before the first test (one copy of three's
        // core, and no page reload when Vite finds them mid-run).
        optimizeDeps: { include: ['three', 'three/webgpu'] },
        test: {
          name: 'webgpu',
          include: ['test/**/*.webgpu.test.ts'],
          testTimeout: 120_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...WEBGPU_ARGS] },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
