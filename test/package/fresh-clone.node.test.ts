/**
 * A newcomer's clone: the repository's committed HEAD, cloned (`git clone`) into a fresh temporary
 * folder `<tmp>/x/y` with nothing beside it, so no file outside the repository can be reached by a
 * relative path (a `shared` folder next to the repository, as developers have, in particular).
 * There it builds (`npm run build`), runs the `npm start` demo (`node demo/crowd.js`) and quick benchmark, the Node
 * tests that read the motion capture, the benchmark suite that reads it and the demo site's build
 * (whose plugin copies it), and checks that the capture is the in-repository data/pirouette.bvh.
 *
 * Dependencies: the clone gets a symlink to this repository's node_modules instead of an
 * `npm install` (no network, no minutes of install; the dependencies are not what is tested here).
 * Uncommitted changes are not in the clone: commit first. Run time 29 s alone on the 2-core machine
 * (build 18 s, demo 3 s, tests 4 s, benchmark 3 s, site 1 s); 112 s inside a full `npm test`
 * (build 49 s, benchmark 33 s: it re-runs noisy rows), hence this file's long timeouts (4 min a
 * test, 5 for the build).
 * Node only: spawns processes.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** data/pirouette.bvh as taken from the three.js examples (data/README.md). */
const PIROUETTE_SHA256 = '23f302ae001e260bbb8a98ed319c61027fd00ce94ea6e2b0769dacfa97599c91';
/** A path into the developers' shared folder beside the repository (written so as not to match itself). */
const OUTSIDE = new RegExp(['\\.\\./', 'shared', '/data/|/work/', 'shared/'].join(''));
const MINUTE = 60_000;

/** The child processes' environment: no vitest worker variables (the inner vitest is a run of its own), no override of the capture. */
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^VITEST|^PIROUETTE_BVH$/.test(key) && key !== 'TEST'),
);
env.npm_config_update_notifier = 'false';

let top = '';
let clone = '';

/** Runs a command in the clone; on failure the error carries its stdout and stderr. */
function run(command: string, args: string[], timeout: number): string {
  try {
    return execFileSync(command, args, { cwd: clone, env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in the clone:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'spring-solver-clone-'));
  const parent = join(top, 'x');
  mkdirSync(parent);
  clone = join(parent, 'y');
  execFileSync('git', ['clone', '--quiet', root, clone], { env, stdio: 'pipe' });
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  run('npm', ['run', 'build'], 4 * MINUTE);
}, 5 * MINUTE);

afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

describe('a fresh clone, with nothing beside it', { timeout: 4 * MINUTE }, () => {
  it('holds the capture, byte for byte as taken from three.js', () => {
    expect(sha256(join(clone, 'data/pirouette.bvh'))).toBe(PIROUETTE_SHA256);
  });

  it('names no file of the shared folder beside the repository in any tracked file', () => {
    const files = run('git', ['ls-files'], MINUTE).split('\n').filter(Boolean);
    expect(files).toContain('data/pirouette.bvh');
    const outside = files.filter((file) => OUTSIDE.test(readFileSync(join(clone, file), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('runs the npm start demo (demo/crowd.js) on the in-repository capture', () => {
    const out = run(process.execPath, ['demo/crowd.js'], 3 * MINUTE);
    expect(out).toContain('5,000 bones of 592-frame pirouette.bvh');
    expect(out).toMatch(/^simd +\d+ transitions\. Largest jump/m);
  });

  it("runs npm start's quick benchmark", () => {
    const out = run(process.execPath, ['bench/run.js', '--quick'], 3 * MINUTE);
    expect(out).toMatch(/×plainJS/);
  });

  it('passes the Node tests that read the capture', () => {
    const vitest = join(clone, 'node_modules/vitest/vitest.mjs');
    const files = [
      'test/bvh',
      'test/reference/so3-jacobian.node.test.ts',
      'test/three/inertialized-mixer.node.test.ts',
      'test/three/skeleton-batch.test.ts',
    ];
    const json = join(top, 'vitest.json');
    run(process.execPath, [vitest, 'run', '--project', 'node', '--reporter', 'json', '--outputFile', json, ...files], 3 * MINUTE);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      success: boolean;
      numPassedTests: number;
      numTotalTests: number;
      testResults: { name: string }[];
    };
    expect(report.success).toBe(true);
    expect(report.numPassedTests).toBe(report.numTotalTests);
    expect(report.numTotalTests).toBeGreaterThan(20);
    const cloneReal = realpathSync(clone);
    expect(report.testResults.map((r) => relative(cloneReal, r.name)).sort()).toEqual([
      'test/bvh/bvh.node.test.ts',
      'test/reference/so3-jacobian.node.test.ts',
      'test/three/inertialized-mixer.node.test.ts',
      'test/three/skeleton-batch.test.ts',
    ]);
  });

  it('runs the benchmark suite that reads the capture (three-mixer)', () => {
    const out = run(process.execPath, ['bench/run.js', '--suite', 'three-mixer'], 3 * MINUTE);
    expect(out).toContain('InertializedMixerGroup.update');
    expect(out).toMatch(/per character: mixer\.update [\d.]+ µs/);
  });

  it('builds the demo site with the capture in it', () => {
    run(process.execPath, [join(clone, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'demo/site/vite.config.ts'], 3 * MINUTE);
    expect(sha256(join(clone, 'demo-dist/data/pirouette.bvh'))).toBe(PIROUETTE_SHA256);
  });
});
