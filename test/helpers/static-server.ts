/**
 * A small static file server for the browser tests (node:http, no dependency). It listens on
 * 127.0.0.1 on a free port, maps URL prefixes to directories, serves `.wasm` with a chosen
 * Content-Type (application/wasm by default, or e.g. application/octet-stream to exercise the
 * loader's fallback), adds optional headers (a Content-Security-Policy) and records every request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

export interface StaticServerOptions {
  /** URL path prefix → directory, e.g. `{ '/': site, '/dist': dist }`; the longest matching prefix wins. */
  mounts: Record<string, string>;
  /** Content-Type sent for `.wasm` files. Default `application/wasm`. */
  wasmContentType?: string;
  /** Headers added to every response, e.g. `{ 'Content-Security-Policy': "script-src 'self'" }`. */
  headers?: Record<string, string>;
}

export interface ServedRequest {
  path: string;
  status: number;
  contentType: string | null;
}

export interface StaticServer {
  /** The origin with a trailing slash, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  /** Every request answered so far, in order. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.bvh': 'text/plain; charset=utf-8',
};

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const mounts = Object.entries(options.mounts)
    .map(([prefix, dir]) => ({ prefix: prefix.replace(/\/+$/, ''), dir: resolve(dir) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const wasmType = options.wasmContentType ?? 'application/wasm';
  const requests: ServedRequest[] = [];

  const fileFor = async (urlPath: string): Promise<string | null> => {
    for (const { prefix, dir } of mounts) {
      if (urlPath !== prefix && !urlPath.startsWith(`${prefix}/`)) continue;
      const file = join(dir, urlPath.slice(prefix.length));
      if (file !== dir && !file.startsWith(dir + sep)) return null; // '..' out of the mount
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) return file;
      if (info?.isDirectory()) {
        const index = join(file, 'index.html');
        if ((await stat(index).catch(() => null))?.isFile()) return index;
      }
      return null;
    }
    return null;
  };

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = await fileFor(path);
    const type = file === null ? null : extname(file) === '.wasm' ? wasmType : (CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
    const status = file === null ? 404 : 200;
    requests.push({ path, status, contentType: type });
    response.writeHead(status, { ...options.headers, ...(type ? { 'Content-Type': type } : {}), 'Cache-Control': 'no-store' });
    response.end(file === null ? `not found: ${path}` : await readFile(file));
  };

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
