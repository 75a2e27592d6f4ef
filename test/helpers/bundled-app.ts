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

/** The first characters of the embedded SIMD build's base64: a bundle containing them carries the builds. */
export async function embeddedMarker(): Promise<string> {
  const source = await readFile(root('dist/backends/wasm/embedded-builds.js'), 'utf8');
  const match = /SIMD_BASE64 = '([^']{64})/.exec(source);
  if (!match) throw new Error('dist/backends/wasm/embedded-builds.js has no SIMD_BASE64: run npm run build');
  return match[1]!;
}
