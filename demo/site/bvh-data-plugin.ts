/**
 * A Vite plugin that makes the pirouette motion capture available to the demo at
 * `/data/pirouette.bvh`, although the file lies outside the site's root: the dev server and the
 * preview server answer that URL from the file, and a build writes it into the output.
 * The file is the repository's data/pirouette.bvh (PIROUETTE_BVH overrides).
 */
import { readFileSync } from 'node:fs';
import type { Connect, Plugin } from 'vite';

export const BVH_URL_PATH = '/data/pirouette.bvh';

export function pirouetteBvhPlugin(file: string): Plugin {
  const read = (): Buffer => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new Error(`demo: cannot read the pirouette motion capture at ${file} (set PIROUETTE_BVH to its path): ${String(error)}`);
    }
  };
  const serve: Connect.NextHandleFunction = (request, response, next) => {
    if (request.url?.split('?')[0] !== BVH_URL_PATH) return next();
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.end(read());
  };
  return {
    name: 'pirouette-bvh',
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BVH_URL_PATH.slice(1), source: read() });
    },
  };
}
