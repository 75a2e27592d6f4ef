// Bundling with Rollup 4 and @rollup/plugin-node-resolve (their JS API). Like esbuild, Rollup keeps
// `new URL('…/x.wasm', import.meta.url)` as it is and copies no .wasm file: 'spring-solver' then
// runs on 'simd' from the embedded copy, which Rollup writes as a chunk per build (the loader's
// import()), loaded only when that build's file is missing. A single-file output (`output.file`, IIFE, UMD)
// needs `inlineDynamicImports`; 'spring-solver/embedded' works as is.
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup, type OutputOptions, type RollupLog } from 'rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import { runScenario } from '../fixtures/spring-scenario.js';
import {
  embeddedChunks,
  embeddedMarker,
  listOutput,
  makeApp,
  runNodeBundle,
  threadsChunk,
  type BundledApp,
} from '../helpers/bundled-app.js';
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
async function bundle(entry: string, out: string, output: OutputOptions = {}): Promise<{ outdir: string; warnings: RollupLog[] }> {
  const warnings: RollupLog[] = [];
  const build = await rollup({ input: app.entry(entry), plugins: [nodeResolve()], onwarn: (warning) => warnings.push(warning) });
  const outdir = join(app.dir, out);
  try {
    await build.write(
      output.file ? { format: 'es', ...output, file: join(outdir, output.file) } : { dir: outdir, format: 'es', ...output },
    );
  } finally {
    await build.close();
  }
  return { outdir, warnings };
}

describe('a Rollup bundle of a Node app', () => {
  it("importing 'spring-solver': no .wasm is written, and it runs on 'simd' from the embedded copy's chunk, with no warning", async () => {
    const { outdir, warnings } = await bundle('node-main.js', 'main');
    expect(warnings).toEqual([]);
    const chunks = await embeddedChunks(outdir, 'node-main.js');
    expect(chunks).toEqual({
      simd: expect.stringMatching(/^embedded-simd-[\w-]+\.js$/),
      scalar: expect.stringMatching(/^embedded-scalar-[\w-]+\.js$/),
    });
    expect((await listOutput(outdir)).files).toEqual([chunks.scalar, chunks.simd, 'node-main.js', await threadsChunk(outdir)]);
    expect(await readFile(join(outdir, 'node-main.js'), 'utf8')).not.toContain(await embeddedMarker());
    expect(await readFile(join(outdir, 'node-main.js'), 'utf8')).not.toContain('Atomics.notify');
    for (const backend of [undefined, 'simd', 'wasm']) {
      const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'), backend);
      expect(result.backend).toBe(backend ?? 'simd');
      expect(result.fallbackReason).toBeNull();
      expect(stderr).toBe('');
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
    }

    // The README's recipe, copying the two files next to the bundle, needs no chunk: deleted, still 'simd'.
    const chunk = chunks.simd;
    await rm(join(outdir, chunks.scalar));
    for (const build of ['simd', 'scalar']) {
      const file = `spring-solver.${build}.wasm`;
      await cp(join(app.dir, 'node_modules/spring-solver/dist/backends/wasm', file), join(outdir, file));
    }
    await rm(join(outdir, chunk));
    const copied = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(copied.result.backend).toBe('simd');
    expect(copied.result.fallbackReason).toBeNull();
    expect(copied.stderr).toBe('');
    expect(maxDifference(copied.result, reference)).toBeLessThan(SCENARIO_TOLERANCE);

    // Neither the files nor the chunk: 'js', and it says why.
    for (const build of ['simd', 'scalar']) await rm(join(outdir, `spring-solver.${build}.wasm`));
    const lost = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(lost.result.backend).toBe('js');
    expect(lost.result.fallbackReason).toContain(
      `the SIMD build (from file://${outdir}/spring-solver.simd.wasm) failed to load: ENOENT: no such file or directory, open '${outdir}/spring-solver.simd.wasm'; ` +
        `its embedded copy failed to load too: Cannot find module '${join(outdir, chunk)}'`,
    );
    expect(lost.stderr).toContain(`createSolver() runs the slower 'js' backend: ${lost.result.fallbackReason}.`);
  });

  it("a single-file output (output.file or IIFE) is refused by Rollup unless inlineDynamicImports, which then runs on 'simd'", async () => {
    await expect(bundle('node-main.js', 'one-file', { file: 'app.js' })).rejects.toThrow(/inlineDynamicImports/);
    await expect(bundle('node-main.js', 'iife', { format: 'iife' })).rejects.toThrow(/not supported for code-splitting builds/);
    const { outdir, warnings } = await bundle('node-main.js', 'inlined', { file: 'app.js', inlineDynamicImports: true });
    expect(warnings).toEqual([]);
    expect((await listOutput(outdir)).files).toEqual(['app.js']);
    expect(await readFile(join(outdir, 'app.js'), 'utf8')).toContain(await embeddedMarker());
    const { result, stderr } = await runNodeBundle(join(outdir, 'app.js'));
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(stderr).toBe('');
  });

  it("importing 'spring-solver/embedded' runs on 'simd' with no file beside it and no warning", async () => {
    const { outdir, warnings } = await bundle('node-embedded.js', 'embedded');
    expect(warnings).toEqual([]);
    expect((await listOutput(outdir)).files).toEqual(['node-embedded.js', await threadsChunk(outdir)]);
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
