// Bundling with Rollup 4 and @rollup/plugin-node-resolve (their JS API). Like esbuild, Rollup keeps
// `new URL('…/x.wasm', import.meta.url)` as it is and copies no .wasm file: 'spring-solver' needs
// the two files copied next to the bundle (the README's recipe), else it runs on 'js' and says why;
// 'spring-solver/embedded' works as is.
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup, type RollupLog } from 'rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import { runScenario } from '../fixtures/spring-scenario.js';
import { embeddedMarker, listOutput, makeApp, runNodeBundle, type BundledApp } from '../helpers/bundled-app.js';
import { maxDifference, SCENARIO_TOLERANCE, type ScenarioResult } from '../helpers/scenario.js';

let app: BundledApp;
let reference: ScenarioResult;

beforeAll(async () => {
  app = await makeApp('rollup');
  reference = await runScenario(createSolver, 'js');
});

afterAll(async () => {
  if (app) await rm(app.dir, { recursive: true, force: true });
});

/** Bundles one entry of test/fixtures/bundler-app/ into `out/` as an ES module; returns the folder and Rollup's warnings. */
async function bundle(entry: string, out: string): Promise<{ outdir: string; warnings: RollupLog[] }> {
  const warnings: RollupLog[] = [];
  const build = await rollup({ input: app.entry(entry), plugins: [nodeResolve()], onwarn: (warning) => warnings.push(warning) });
  const outdir = join(app.dir, out);
  await build.write({ dir: outdir, format: 'es' });
  await build.close();
  return { outdir, warnings };
}

describe('a Rollup bundle of a Node app', () => {
  it("importing 'spring-solver': no .wasm is written, so it runs on 'js', names the missing file and warns", async () => {
    const { outdir, warnings } = await bundle('node-main.js', 'main');
    expect(warnings).toEqual([]);
    expect((await listOutput(outdir)).files).toEqual(['node-main.js']);
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('js');
    expect(result.fallbackReason).toContain(`the SIMD build (from file://${outdir}/spring-solver.simd.wasm) failed to load: ENOENT`);
    expect(stderr).toContain(`createSolver() runs the slower 'js' backend: ${result.fallbackReason}.`);

    // The README's recipe: copy the two files next to the bundle.
    for (const build of ['simd', 'scalar']) {
      const file = `spring-solver.${build}.wasm`;
      await cp(join(app.dir, 'node_modules/spring-solver/dist/backends/wasm', file), join(outdir, file));
    }
    const copied = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(copied.result.backend).toBe('simd');
    expect(copied.result.fallbackReason).toBeNull();
    expect(copied.stderr).toBe('');
    expect(maxDifference(copied.result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
  });

  it("importing 'spring-solver/embedded' runs on 'simd' with no file beside it and no warning", async () => {
    const { outdir, warnings } = await bundle('node-embedded.js', 'embedded');
    expect(warnings).toEqual([]);
    expect((await listOutput(outdir)).files).toEqual(['node-embedded.js']);
    expect(await readFile(join(outdir, 'node-embedded.js'), 'utf8')).toContain(await embeddedMarker());
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-embedded.js'));
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(stderr).toBe('');
    expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
  });

  it("a bundle using only a pure function of 'spring-solver/embedded' leaves the builds and the solver out", async () => {
    const { outdir } = await bundle('conversion-only.js', 'pure');
    const code = await readFile(join(outdir, 'conversion-only.js'), 'utf8');
    expect(code).not.toContain(await embeddedMarker());
    expect(code).not.toContain('createSolver');
    expect(code).toContain('halflifeToDamping');
  });
});
