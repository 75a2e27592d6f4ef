/**
 * A passing test run prints nothing on stderr: a representative part of the suite, run in a vitest of its own,
 * must pass with an empty stderr. The files are ones that printed the large-dt warning before their solvers said
 * `warnLargeDt: false` or their tests captured it (test/helpers/backends.ts, `LARGE_DT_ON_PURPOSE`): a sweep to
 * dt = 1 s, dt beyond float32, a rejected dt of 10⁴ s, and the solver-less three.js helpers. (The demo site's
 * builds fail on any Vite warning by themselves: test/helpers/demo-site.ts.) About 15 s alone. Node only: spawns
 * a process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FILES = [
  'test/core/analytic.test.ts',
  'test/core/robustness.test.ts',
  'test/families/huge-parameters.test.ts',
  'test/three/damp.test.ts',
];

/** The inner vitest's environment: no variables of this vitest's workers (it is a run of its own). */
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^VITEST/.test(key) && key !== 'TEST'));

it('passes a representative part of the suite with nothing on stderr', { timeout: 4 * 60_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'spring-solver-quiet-'));
  try {
    const json = join(folder, 'vitest.json');
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    // The dot reporter prints the tests' console output, as the default reporter does (the JSON reporter alone would not).
    const args = [vitest, 'run', '--project', 'node', '--reporter=dot', '--reporter=json', `--outputFile.json=${json}`, ...FILES];
    const { status, stderr } = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      success: boolean;
      numPassedTests: number;
      numTotalTests: number;
      testResults: { name: string }[];
    };
    expect(report.testResults.map((r) => relative(root, r.name)).sort()).toEqual(FILES);
    expect(report.success).toBe(true);
    expect(report.numPassedTests).toBe(report.numTotalTests);
    expect(status).toBe(0);
    expect(stderr).toBe('');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
