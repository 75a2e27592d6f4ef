/**
 * Every public function, class, constructor and method of every entry point (test/helpers/public-api.ts,
 * read from the sources as typedoc reads them) has an `@example`: a ```ts block that imports from
 * the package's paths (`spring-solver`, `spring-solver/three`…) and declares whatever else it
 * assumes in the block itself. Each block is written under test-results/doc-examples/ inside the
 * package, so `spring-solver` resolves to the built package as a consumer's import does, and
 * type-checked (tsc --strict); the ones that need no browser are then run in Node. Node only.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    const bad = examples.filter((e) => e.code === null || !/from 'spring-solver(\/\w+)?'/.test(e.code)).map((e) => e.symbol);
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
});
