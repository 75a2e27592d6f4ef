// The dev server (`npm run demo`) answers the navigation's API link from typedoc's output folder,
// and, when that folder has not been written, with a page that says how to write it (not the
// site's own index.html, which a single-page fallback would serve).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocsPlugin } from '../../demo/site/api-docs-plugin.js';

let dir: string;
let server: ViteDevServer;
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spring-solver-api-plugin-'));
  await mkdir(join(dir, 'docs/assets'), { recursive: true });
  await writeFile(join(dir, 'docs/index.html'), '<title>API</title>');
  await writeFile(join(dir, 'docs/assets/style.css'), 'body {}');
  await writeFile(join(dir, 'secret.txt'), 'not part of the docs');
  server = await createServer({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [apiDocsPlugin(join(dir, 'docs'))],
    server: { port: 0, host: '127.0.0.1' },
  });
  await server.listen();
  origin = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('apiDocsPlugin (the dev server)', () => {
  it('serves the API docs under /api/, with their content types', async () => {
    const page = await fetch(`${origin}/api/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toBe('<title>API</title>');
    const css = await fetch(`${origin}/api/assets/style.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect((await fetch(`${origin}/api/`)).status).toBe(200); // the folder's index.html
  });

  it('answers a missing page with a 404 that names npm run docs, and never serves outside the folder', async () => {
    const missing = await fetch(`${origin}/api/classes/Nothing.html`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('npm run docs');
    expect(await (await fetch(`${origin}/api/..%2Fsecret.txt`)).text()).not.toContain('not part of the docs');
  });
});
