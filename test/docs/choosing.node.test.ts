// docs/choosing.md ("Which one do I use?") names real methods and its examples run: every
// `name(` in an inline code span is an export of the package's entries, a Solver method, or a
// method of an exported class; every name a block imports from spring-solver exists in that entry,
// and every `solver.name(` of a block is a Solver method; every block runs in Node as written,
// with nothing on stderr, except the one block marked `// fragment:` (VRM avatars need a model).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as main from '../../dist/index.js';
import * as three from '../../dist/three/index.js';
import * as vrm from '../../dist/vrm/index.js';
import type { Solver } from '../../dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(`${root}docs/choosing.md`, 'utf8');

const ENTRIES: Record<string, Record<string, unknown>> = {
  'spring-solver': main,
  'spring-solver/three': three,
  'spring-solver/vrm': vrm,
};
const EXPORTS: Record<string, unknown> = { ...main, ...three, ...vrm };

const FENCED = /```(\w*)\n([\s\S]*?)```/g;

/** Calls the page names that are not the library's: the platform's and three.js's. */
const NOT_OURS = new Set(['performance.now', 'clock.getDelta']);

/** The fenced code blocks of a language. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(FENCED)].filter((m) => m[1] === language).map((m) => m[2]!);
}

/**
 * Every call in an inline code span (fenced blocks left out), as written before its `(`:
 * `solver.damper`, `new Inertializer`, `spring3`, `Inertializer.update`.
 */
function calledNames(markdown: string): string[] {
  const prose = markdown.replace(FENCED, '');
  const names: string[] = [];
  for (const [, span] of prose.matchAll(/`([^`\n]+)`/g)) {
    for (const [, isNew, path] of span!.matchAll(/(new\s+)?((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*)\(/g)) {
      names.push(isNew ? `new ${path}` : path!);
    }
  }
  return names;
}

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

/** The exported classes' instance methods, by name. */
function classMethods(): Set<string> {
  const names = new Set<string>();
  for (const value of Object.values(EXPORTS)) {
    if (!isFunction(value)) continue;
    const prototype = (value as { prototype?: object }).prototype;
    if (!prototype) continue;
    for (const name of Object.getOwnPropertyNames(prototype)) if (name !== 'constructor') names.add(name);
  }
  return names;
}

/** The names of `names` that are no export, Solver method or method of an exported class. */
function unknownNames(names: string[], solver: Solver): string[] {
  const methods = classMethods();
  const isSolverMethod = (name: string) => isFunction((solver as unknown as Record<string, unknown>)[name]);
  return names.filter((written) => {
    if (NOT_OURS.has(written)) return false;
    if (written.startsWith('new ')) {
      const name = written.slice(4);
      return !(isFunction(EXPORTS[name]) && 'prototype' in (EXPORTS[name] as object));
    }
    const parts = written.split('.');
    const name = parts.at(-1)!;
    if (parts.length === 1) return !(isFunction(EXPORTS[name]) || isSolverMethod(name));
    const receiver = parts.at(-2)!;
    if (receiver === 'solver') return !isSolverMethod(name);
    const exported = EXPORTS[receiver] as { prototype?: Record<string, unknown> } | undefined;
    if (exported !== undefined) return !(isFunction(exported.prototype?.[name]) || isFunction((exported as Record<string, unknown>)[name]));
    return !(isSolverMethod(name) || methods.has(name));
  });
}

/** `import { a, b } from 'spring-solver…'` of a block: [entry, name] pairs. */
function imports(code: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [, list, from] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    if (!from!.startsWith('spring-solver')) continue;
    for (const item of list!.split(',')) {
      const name = item.trim().split(/\s+as\s+/)[0]!;
      if (name !== '' && !name.startsWith('type ')) pairs.push([from!, name]);
    }
  }
  return pairs;
}

describe('docs/choosing.md', () => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await main.createSolver({ backend: 'js' });
  });
  afterAll(() => solver.dispose());

  it('names a method for every goal in its inline code (the extraction itself)', () => {
    const names = calledNames(PAGE);
    for (const name of [
      'solver.damper',
      'solver.criticalSpringDamper',
      'solver.springDamper',
      'solver.springDamperRatio',
      'solver.pdSpring',
      'new SecondOrderDynamics',
      'new Inertializer',
      'solver.quatSimpleSpringDamper',
      'spring3',
      'new InstancedSprings',
      'new InertializedMixer',
      'new SpringBones',
      'createSolver',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('every method it names in inline code exists: an export, a Solver method, or a method of an exported class', () => {
    expect(unknownNames(calledNames(PAGE), solver)).toEqual([]);
  });

  it('reports a misspelt name (the check itself)', () => {
    const text =
      'Use `solver.criticalSpringDampr(x, v, g, q, h, dt)`, `new Inertialiser()`, `sprng3()`, `Inertializer.updat()` or ' +
      '`springs.updte()`; not `solver.damper(x)`, `new FixedStepper()`, `damper3()`, `Inertializer.update()`, `im.transition()`.\n' +
      '```js\nsolver.notAMethod();\n```\n';
    expect(calledNames(text)).toHaveLength(10);
    expect(unknownNames(calledNames(text), solver)).toEqual([
      'solver.criticalSpringDampr',
      'new Inertialiser',
      'sprng3',
      'Inertializer.updat',
      'springs.updte',
    ]);
  });

  it('every name a block imports from spring-solver exists in that entry', () => {
    const pairs = blocks(PAGE, 'js').flatMap(imports);
    expect(pairs).toContainEqual(['spring-solver/vrm', 'SpringBones']);
    expect(pairs.filter(([entry, name]) => !(name in ENTRIES[entry]!))).toEqual([]);
  });

  it('every `solver.name(` in a block is a Solver method', () => {
    const called = blocks(PAGE, 'js').flatMap((code) => [...code.matchAll(/\bsolver\.(\w+)\(/g)].map((m) => `solver.${m[1]}`));
    expect(called).toContain('solver.springDamper');
    expect(unknownNames(called, solver)).toEqual([]);
  });

  it('has an example for every row of the table, plain JavaScript', () => {
    const rows = PAGE.split('\n').filter((line) => /^\| \[/.test(line));
    const headings = [...PAGE.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(rows).toHaveLength(7);
    expect(headings).toHaveLength(7);
    expect(blocks(PAGE, 'js')).toHaveLength(7);
    expect(blocks(PAGE, 'ts')).toEqual([]);
  });

  const runnable = blocks(PAGE, 'js').filter((code) => !code.startsWith('// fragment:'));

  it('marks only the VRM example as a fragment', () => {
    const fragments = blocks(PAGE, 'js').filter((code) => code.startsWith('// fragment:'));
    expect(fragments).toHaveLength(1);
    expect(fragments[0]).toContain("from 'spring-solver/vrm'");
    expect(runnable).toHaveLength(6);
  });

  it.each(runnable.map((code) => [code.split('\n').find((l) => l.startsWith('import'))!, code] as const))(
    'runs as written in Node, with nothing on stderr: %s …',
    (_first, code) => {
      // Run from the repository: 'spring-solver' resolves to the package itself (its exports, dist/).
      const run = spawnSync(process.execPath, ['--input-type=module'], { cwd: root, input: code, encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).not.toBe('');
    },
  );
});
