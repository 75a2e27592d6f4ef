/**
 * For the bundler tests (test/loading/bundle-*.node.test.ts): a temporary app folder laid out as after
 * `npm install spring-solver` (package.json and dist/ under node_modules/spring-solver, so the
 * bundler resolves 'spring-solver' and 'spring-solver/embedded' through the "exports" map), with
 * test/fixtures/bundler-app/ and the shared scenario copied in; and running a Node bundle.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ScenarioResult } from './scenario.js';

const root = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export interface BundledApp {
  /** The app folder: `bundler-app/` (the entries), `spring-scenario.js`, `node_modules/spring-solver/`. */
  dir: string;
  /** An entry of test/fixtures/bundler-app/, e.g. `entry('node-main.js')`. */
  entry(name: string): string;
}

export async function makeApp(name: string): Promise<BundledApp> {
  const dir = await mkdtemp(join(tmpdir(), `spring-solver-${name}-`));
  const packageDir = join(dir, 'node_modules', 'spring-solver');
  await mkdir(packageDir, { recursive: true });
  await cp(root('package.json'), join(packageDir, 'package.json'));
  await cp(root('dist'), join(packageDir, 'dist'), { recursive: true });
  await cp(root('test/fixtures/bundler-app'), join(dir, 'bundler-app'), { recursive: true });
  await cp(root('test/fixtures/spring-scenario.js'), join(dir, 'spring-scenario.js'));
  return { dir, entry: (file) => join(dir, 'bundler-app', file) };
}

export interface NodeRun {
  result: ScenarioResult;
  /** What the bundle wrote to stderr (console.warn goes there). */
  stderr: string;
}

/** Runs a bundled node-*.js entry with Node, on `backend` or the default choice. */
export async function runNodeBundle(file: string, backend?: string): Promise<NodeRun> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [file, ...(backend ? [backend] : [])], { timeout: 15_000 });
  return { result: JSON.parse(stdout) as ScenarioResult, stderr };
}

/** The files a build wrote (relative paths, sorted) and their total size in bytes. */
export async function listOutput(dir: string): Promise<{ files: string[]; bytes: number }> {
  const files = (await readdir(dir, { recursive: true })).sort();
  let bytes = 0;
  const regular: string[] = [];
  for (const file of files) {
    const info = await stat(join(dir, file));
    if (!info.isFile()) continue;
    regular.push(file);
    bytes += info.size;
  }
  return { files: regular, bytes };
}

/** The first characters of an embedded build's base64 (SIMD by default): a file containing them carries that build. */
export async function embeddedMarker(build: 'simd' | 'scalar' = 'simd'): Promise<string> {
  const file = `dist/backends/wasm/embedded-${build}.js`;
  const match = /_BASE64 = '([^']{64})/.exec(await readFile(root(file), 'utf8'));
  if (!match) throw new Error(`${file} has no base64 build: run npm run build`);
  return match[1]!;
}

/**
 * The chunks a code-splitting bundler writes beside every entry besides the embedded copies: the
 * lazy chunk of createSolver({ threads }) (src/api/threads.ts, `threads-*.js`) and esbuild's
 * shared chunks (`chunk-*.js`).
 */
export const OTHER_CHUNK = /^(threads|chunk)-[\w-]+\.js$/;

/** The lazy chunk of the threads' code in a bundle's output folder (it holds the worker's source). */
export async function threadsChunk(dir: string): Promise<string> {
  const found = (await listOutput(dir)).files.filter((file) => /^threads-[\w-]+\.js$/.test(file));
  if (found.length !== 1) throw new Error(`expected one threads chunk in ${dir}, found: ${found.join(', ') || 'none'}`);
  if (!(await readFile(join(dir, found[0]!), 'utf8')).includes('Atomics.notify')) throw new Error(`${found[0]} holds no worker`);
  return found[0]!;
}

/**
 * The lazy chunks of the embedded copies in a bundle's output folder: its JS files other than `entry`,
 * the OTHER_CHUNK ones and the threads' chunk (webpack numbers its chunks), which must be exactly
 * two, one holding each build.
 */
export async function embeddedChunks(dir: string, entry: string): Promise<{ simd: string; scalar: string }> {
  const chunks: string[] = [];
  for (const file of (await listOutput(dir)).files) {
    if (!file.endsWith('.js') || file === entry || OTHER_CHUNK.test(file)) continue;
    if ((await readFile(join(dir, file), 'utf8')).includes('Atomics.notify')) continue; // the threads' chunk, under any name
    chunks.push(file);
  }
  const holding = async (build: 'simd' | 'scalar') => {
    const marker = await embeddedMarker(build);
    const found: string[] = [];
    for (const chunk of chunks) if ((await readFile(join(dir, chunk), 'utf8')).includes(marker)) found.push(chunk);
    return found;
  };
  const [simd, scalar] = [await holding('simd'), await holding('scalar')];
  if (chunks.length !== 2 || simd.length !== 1 || scalar.length !== 1 || simd[0] === scalar[0]) {
    throw new Error(`expected one chunk per embedded build beside ${entry} in ${dir}, found: ${chunks.join(', ') || 'none'}`);
  }
  return { simd: simd[0]!, scalar: scalar[0]! };
}
