/**
 * The demo site: `npm run demo` serves it (dev server), `npm run demo:build` writes it to
 * demo-dist/. Pages are plain HTML + TypeScript modules; `spring-solver` is this repository's
 * built package: an alias points it at dist/index.js (so run `npm run build` first). The navigation's
 * API link goes to the typedoc output (demo-dist/api in a build, docs-api/ on the dev server).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { API_URL_PATH, apiDocsPlugin } from './api-docs-plugin.js';
import { pirouetteBvhPlugin } from './bvh-data-plugin.js';
import { pageLayoutPlugin, type DemoPage } from './page-layout-plugin.js';

const site = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(site, '../..');

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

const PAGES: readonly DemoPage[] = [
  { file: 'index', title: 'About' },
  { file: 'springs', title: 'Springs' },
  { file: 'bench', title: 'Benchmark' },
  { file: 'skeleton', title: 'Skeleton' },
  { file: 'three', title: '3D' },
  { file: 'gpu', title: 'GPU' },
];
/** The typedoc API docs: `npm run demo:build` writes them to demo-dist/api, the dev server serves docs-api/. */
const LINKS = [{ href: `.${API_URL_PATH}index.html`, title: 'API' }];

export default defineConfig({
  root: site,
  base: './',
  plugins: [
    pageLayoutPlugin(PAGES, LINKS),
    pirouetteBvhPlugin(process.env.PIROUETTE_BVH ?? resolve(repo, 'data/pirouette.bvh')),
    apiDocsPlugin(resolve(repo, 'docs-api')),
  ],
  resolve: {
    alias: [
      { find: /^spring-solver$/, replacement: resolve(repo, 'dist/index.js') },
      { find: /^spring-solver\/three$/, replacement: resolve(repo, 'dist/three/index.js') },
      { find: /^spring-solver\/vrm$/, replacement: resolve(repo, 'dist/vrm/index.js') },
      { find: /^spring-solver\/webgpu$/, replacement: resolve(repo, 'dist/webgpu/index.js') },
      { find: /^spring-solver\/three-webgpu$/, replacement: resolve(repo, 'dist/three-webgpu/index.js') },
    ],
  },
  // Cross-origin isolated (COOP and COEP), so that the crowd can run createSolver({ threads }).
  server: { host: 'localhost', fs: { allow: [repo] }, headers: ISOLATION },
  preview: { headers: ISOLATION },
  build: {
    outDir: resolve(repo, 'demo-dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The largest chunk is the 3D page's (three.html): mostly three.js, which that page needs whole, so splitting
    // it would not make the page load less (721 kB minified, 192 kB gzip, with three 0.187). Vite's default limit,
    // 500 kB, warned on it in every build (three times in `npm test`); this limit sits a little above it, so a chunk
    // that grows well past it still warns.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      input: Object.fromEntries(PAGES.map(({ file }) => [file, resolve(site, `${file}.html`)])),
      // Rolldown's report of the plugins' share of the build time (PLUGIN_TIMINGS) comes and goes with the
      // machine's load (seen in a loaded `npm test`, where the tests' builds fail on any warning: test/helpers/demo-site.ts);
      // it says nothing about the site.
      checks: { bundlerTimings: false },
    },
  },
});
