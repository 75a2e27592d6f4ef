/**
 * Every public function, class, constructor and method of every entry point (test/helpers/public-api.ts,
 * read from the sources as typedoc reads them) has an `@example`: a ```ts block that imports from
 * the package's paths (`spring-solver`, `spring-solver/three`…) and declares whatever else it
 * assumes in the block itself. Each block is written under test-results/doc-examples/ inside the
 * package, so `spring-solver` resolves to the built package as a consumer's import does, and
 * type-checked (tsc --strict); the complete ones (declaring nothing they assume) are then run in
 * Node. Node only.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicSymbols, type PublicSymbol } from '../helpers/public-api.js';
import { ROOT, typeCheck } from '../helpers/typecheck.js';

const DIR = join(ROOT, 'test-results', 'doc-examples');
const FENCE = /^```ts\n([\s\S]*?)\n```$/m;

interface Example {
  /** `spring-solver/three InstancedSprings.update`, as the failures name it. */
  symbol: string;
  file: string;
  code: string | null;
}

const symbols = publicSymbols();
const label = (s: PublicSymbol) => `${s.module} ${s.name}`;
const examples: Example[] = symbols.flatMap((s) =>
  s.examples.map((text, i) => ({
    symbol: label(s),
    file: join(DIR, `${s.module.replaceAll('/', '_')}.${s.name}.${i}.mts`),
    code: FENCE.exec(text.trim())?.[1] ?? null,
  })),
);

describe('@example of every public symbol', () => {
  beforeAll(async () => {
    await rm(DIR, { recursive: true, force: true });
    await mkdir(DIR, { recursive: true });
  });

  it('finds the public API of every entry point', () => {
    const names = symbols.map(label);
    // If these are not found, the walk is broken and the tests below would prove little.
    for (const core of [
      'spring-solver createSolver',
      'spring-solver Solver.damper',
      'spring-solver Inertializer.constructor',
      'spring-solver/three InstancedSprings.update',
      'spring-solver/vrm SpringBones',
      'spring-solver/bvh parseBvh',
      'spring-solver/embedded createSolver',
      'spring-solver/reference quat.mul',
    ]) {
      expect(names).toContain(core);
    }
  });

  it('every public function, class, constructor and method has an @example', () => {
    expect(symbols.filter((s) => s.examples.length === 0).map(label)).toEqual([]);
  });

  it('every @example is one ```ts block that imports from the package', () => {
    const bad = examples.filter((e) => e.code === null || !/from 'spring-solver(\/[\w-]+)?'/.test(e.code)).map((e) => e.symbol);
    expect(bad).toEqual([]);
  });

  it('every @example type-checks (tsc --strict, module nodenext)', async () => {
    const checked = examples.filter((e) => e.code !== null);
    for (const e of checked) await writeFile(e.file, `${e.code}\nexport {};\n`);
    const report = await typeCheck(
      DIR,
      checked.map((e) => e.file),
    );
    // tsc's lines name the file: give the symbol instead, with the error.
    const failures = report
      .split('\n')
      .filter((line) => line.includes('error TS'))
      .map((line) => {
        const example = checked.find((e) => line.startsWith(e.file) || line.startsWith(e.file.slice(ROOT.length)));
        return `${example?.symbol ?? '?'}: ${line.slice(line.indexOf('('))}`;
      });
    expect(failures).toEqual([]);
    expect(report).toBe('');
  }, 120_000);

  // A complete example (one that declares nothing it does not define) runs as written, in one
  // Node process, one after another: a throw or a rejected promise is reported with the symbol.
  it('every complete @example runs in Node', async () => {
    // spring-solver/webgpu's and three-webgpu's examples need a browser with WebGPU (createGpuSolver rejects in Node):
    // type-checked above; their calls run in Chromium in test/webgpu/*.webgpu.test.ts.
    const complete = examples.filter(
      (e) => e.code !== null && !/^declare /m.test(e.code) && !/from 'spring-solver\/(three-)?webgpu'/.test(e.code),
    );
    expect(complete.length).toBeGreaterThan(100);
    for (const e of complete) {
      const js = (await transform(e.code!, { loader: 'ts', format: 'esm' })).code;
      await writeFile(e.file.replace(/\.mts$/, '.mjs'), js);
    }
    const results = join(DIR, 'results.json');
    const runner = `import { writeFileSync } from 'node:fs';
const failures = [];
for (const [symbol, url] of ${JSON.stringify(complete.map((e) => [e.symbol, pathToFileURL(e.file.replace(/\.mts$/, '.mjs')).href]))}) {
  try { await import(url); } catch (error) { failures.push(symbol + ': ' + String(error)); }
}
writeFileSync(${JSON.stringify(results)}, JSON.stringify(failures));
`;
    await writeFile(join(DIR, 'run-all.mjs'), runner);
    await promisify(execFile)(process.execPath, [join(DIR, 'run-all.mjs')], { cwd: ROOT, timeout: 100_000, maxBuffer: 1 << 26 });
    expect(JSON.parse(await readFile(results, 'utf8'))).toEqual([]);
  }, 120_000);
});
