// Every public function of the package has a doc comment: the functions and classes exported
// from every entry point of typedoc.json, the public methods and constructors of those classes,
// and the methods of its exported interfaces (Solver's included, whichever file declares them).
// Read with the TypeScript compiler API from the sources (test/helpers/public-api.ts), as
// `npm run docs` (typedoc) reads them. And every export, and every method of Solver, has one
// `@group`: a family of typedoc.json's `groupOrder`, so that the docs list members by family.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupTags, publicSymbols } from '../helpers/public-api.js';

const FAMILIES: string[] = JSON.parse(readFileSync(new URL('../../typedoc.json', import.meta.url), 'utf8')).groupOrder.filter(
  (group: string) => group !== '*',
);

describe('doc comments', () => {
  const symbols = publicSymbols();

  it('finds the public API (the core of it at least)', () => {
    const names = symbols.map((s) => s.name);
    // If these are not found, the walk is broken and the next test would prove nothing.
    for (const core of [
      'createSolver',
      'halflifeToDamping',
      'Solver.damper',
      'Solver.springDamper',
      'Solver.alloc',
      'InstancedSprings.update',
    ]) {
      expect(names).toContain(core);
    }
  });

  it('every public function, class and method has a non-empty doc comment', () => {
    expect(
      symbols
        .filter((s) => s.comment === '')
        .map((s) => `${s.module} ${s.name}`)
        .sort(),
    ).toEqual([]);
  });

  it('every export of every entry point, and every member of Solver, has one @group of the families', () => {
    const tagged = groupTags();
    expect(tagged.map((t) => t.name)).toContain('spring-solver Solver.damper'); // the walk reaches Solver's members
    expect(tagged.filter((t) => t.groups.length !== 1 || !FAMILIES.includes(t.groups[0]!)).map((t) => `${t.name} ${t.groups}`)).toEqual([]);
  });
});
