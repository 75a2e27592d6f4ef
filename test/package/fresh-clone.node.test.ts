/**
 * A newcomer's clone: the repository's committed HEAD, cloned (`git clone`) into a fresh temporary
 * folder `<tmp>/x/y` with nothing beside it, so no file outside the repository can be reached by a
 * relative path (a `shared` folder next to the repository, as developers have, in particular).
 * A fresh project beside it installs it by path, with the README's command (`npm install
 * --install-links <clone>`): npm runs the clone's `prepare` (scripts/prepare.mjs), which builds the
 * clone (`npm run build`), then packs and copies it into the project, where the README's Node quick
 * start runs. Then the clone, as built, runs the `npm start` demo (`node demo/crowd.js`) and quick
 * benchmark, the Node tests that read the motion capture, the benchmark suite that reads it and the
 * demo site's build (whose plugin copies it), and checks that the capture is the in-repository
 * data/pirouette.bvh.
 *
 * Dependencies: the clone gets a symlink to this repository's node_modules instead of an
 * `npm install` (no network, no minutes of install; the dependencies are not what is tested here;
 * prepare's `npm ci` for a clone without them is not run). The project's install needs no registry:
 * spring-solver has no dependencies. Uncommitted changes are not in the clone: commit first. Run time
 * 29 s alone on the 2-core machine (build 18 s, demo 3 s, tests 4 s, benchmark 3 s, site 1 s); 112 s
 * inside a full `npm test` (build 49 s, benchmark 33 s: it re-runs noisy rows), hence this file's
 * long timeouts (4 min a test, 5 for the install and build).
 * Node only: spawns processes.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

/**
 * The child processes' environment: no vitest worker variables (the inner vitest is a run of its own), no override of
 * the capture, and nothing of the `npm test` that runs this file (its command, folder and package), so that the
 * project's `npm install` is a user's: it runs the clone's prepare as an install started elsewhere.
 */
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^VITEST|^PIROUETTE_BVH$|^INIT_CWD$|^npm_(?!config_)|^npm_config_local_prefix$/.test(key) && key !== 'TEST',
  ),
);
env.npm_config_update_notifier = 'false';

let top = '';
let clone = '';
/** The user's project that installs the clone by path. */
let project = '';

/** Runs a command in the clone (or in `cwd`); on failure the error carries its stdout and stderr. */
function run(command: string, args: string[], timeout: number, cwd = clone): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** The README's command that installs a clone by path, with the clone's path for its `../spring-solver`. */
const INSTALL_BY_PATH = 'npm install --install-links ../spring-solver';

/** The README's first ```js block under a heading `### Node`: the Node quick start. */
function nodeQuickStart(readme: string): string {
  const block = /^### Node\n[\s\S]*?^```js\n([\s\S]*?)^```$/m.exec(readme);
  expect(block, 'README: a ```js block under "### Node"').not.toBeNull();
  return block![1]!;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'spring-solver-clone-'));
  const parent = join(top, 'x');
  mkdirSync(parent);
  clone = join(parent, 'y');
  execFileSync('git', ['clone', '--quiet', root, clone], { env, stdio: 'pipe' });
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  project = join(top, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'project', private: true, type: 'module' }, null, 2)}\n`);
  const [npm, ...args] = INSTALL_BY_PATH.replace('../spring-solver', clone).split(' ');
  run(npm!, [...args, '--no-audit', '--no-fund'], 5 * MINUTE, project);
}, 6 * MINUTE);

afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

describe('a fresh clone, with nothing beside it', { timeout: 4 * MINUTE }, () => {
  it("installs by path with the README's command into a fresh project: prepare built the clone, the project has a copy", () => {
    expect(readFileSync(join(clone, 'README.md'), 'utf8')).toContain(INSTALL_BY_PATH);
    expect(existsSync(join(clone, 'dist/index.js'))).toBe(true);
    const installed = join(project, 'node_modules/spring-solver');
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(existsSync(join(installed, 'dist/backends/wasm/spring-solver.simd.wasm'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies).toEqual({
      'spring-solver': `file:${relative(project, clone)}`,
    });
  });

  it("runs the README's Node quick start in that project, on 'simd', with nothing on stderr", () => {
    writeFileSync(join(project, 'quick-start.mjs'), nodeQuickStart(readFileSync(join(clone, 'README.md'), 'utf8')));
    const result = spawnSync(process.execPath, ['quick-start.mjs'], { cwd: project, env, encoding: 'utf8', timeout: MINUTE });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^simd 0\.0229\d*\n$/);
  });

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
