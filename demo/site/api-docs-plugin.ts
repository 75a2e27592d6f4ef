/**
 * A Vite plugin for the site's "API" link (`./api/index.html`): `npm run demo:build` writes the
 * typedoc output into the build (demo-dist/api), and the dev server answers `/api/…` from
 * typedoc's own output folder (docs-api/, which `npm run demo` writes first with `npm run docs`).
 * Without it, the dev server answers with a page that says how to make it, not a 404.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Connect, Plugin } from 'vite';

export const API_URL_PATH = '/api/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function apiDocsPlugin(docs: string): Plugin {
  const root = resolve(docs);
  const serve: Connect.NextHandleFunction = (request, response, next) => {
    const path = decodeURIComponent(request.url?.split('?')[0] ?? '');
    if (!path.startsWith(API_URL_PATH)) return next();
    const relative = path.slice(API_URL_PATH.length) || 'index.html';
    const file = join(root, relative.endsWith('/') ? `${relative}index.html` : relative);
    if (!file.startsWith(root + sep)) return next();
    readFile(file).then(
      (body) => {
        response.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
        response.end(body);
      },
      () => {
        response.statusCode = 404;
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(`<p>No API docs at ${file}: run <code>npm run docs</code> (typedoc) and reload.</p>`);
      },
    );
  };
  return { name: 'api-docs', configureServer: (server) => void server.middlewares.use(serve) };
}
