// Every public function of the package has a doc comment: the functions and classes exported
// from every entry point of typedoc.json, the public methods and constructors of those classes,
// and the methods of its exported interfaces (Solver's included, whichever file declares them).
// Read with the TypeScript compiler API from the sources (test/helpers/public-api.ts), as
// `npm run docs` (typedoc) reads them.
import { describe, expect, it } from 'vitest';
import { publicSymbols } from '../helpers/public-api.js';

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
});
