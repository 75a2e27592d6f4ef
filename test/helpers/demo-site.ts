/**
 * The demo site (demo/site) for the browser tests: built with Vite's JS API into a temporary
 * folder and served by the static server. Needs `npm run build` (the site imports dist/). A
 * warning of the build (Vite's or a plugin's, e.g. the chunk-size notice) fails it: `npm test` is quiet.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLogger } from 'vite';
import { startStaticServer } from './static-server.js';

const CONFIG = fileURLToPath(new URL('../../demo/site/vite.config.ts', import.meta.url));

export interface DemoSite {
  /** The site's root URL with a trailing slash: pages are `${url}bench.html`… */
  url: string;
  /** The folder of the build (to serve it again, e.g. with other headers). */
  outDir: string;
  /** Stops the server and removes the build. */
  close(): Promise<void>;
}

/** Builds and serves the site; `addToBuild(outDir)` may write more into the build first (the API docs). */
export async function startDemoSite(addToBuild?: (outDir: string) => Promise<void>): Promise<DemoSite> {
  const outDir = await mkdtemp(join(tmpdir(), 'spring-solver-demo-'));
  try {
    const warnings: string[] = [];
    const customLogger = createLogger('warn');
    customLogger.warn = (message) => void warnings.push(message);
    customLogger.warnOnce = customLogger.warn;
    await build({ configFile: CONFIG, logLevel: 'warn', customLogger, build: { outDir, emptyOutDir: true } });
    if (warnings.length > 0) throw new Error(`Vite warned while building the demo site:\n${warnings.join('\n')}`);
    await addToBuild?.(outDir);
    const server = await startStaticServer({ mounts: { '/': outDir } });
    return {
      url: server.url,
      outDir,
      close: async () => {
        await server.close();
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
}
