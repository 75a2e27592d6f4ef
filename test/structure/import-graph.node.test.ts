/**
 * The layering of src/: no file takes part in an import circle (type imports included), and the
 * method families import only the kernel contract and the float64 reference.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative module specifiers of `import`, `import type`, `export … from` and `import()`. */
function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return [...new Set(specifiers)];
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    const targets = relativeImports(text).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
    graph.set(
      relative(src, file),
      targets.map((t) => relative(src, t)),
    );
  }
  return graph;
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('src/ layering', () => {
  const graph = importGraph();

  it('reads the imports of every source file', () => {
    expect(graph.get('api/solver.ts')).toContain('core/contract.ts');
    expect(graph.get('methods/composite.ts')).toContain('core/contract.ts');
  });

  it('finds a circle when there is one (the detector itself)', () => {
    const circular = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCircles(circular)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      importCircles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import circle, type imports included', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('lets the method families import only the kernel contract, the reference and each other', () => {
    const outside = [...graph]
      .filter(([file]) => file.startsWith('methods/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((t) => !(t === 'core/contract.ts' || t.startsWith('reference/') || t.startsWith('methods/')))
          .map((t) => `${file} → ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it('keeps the kernel contract a leaf of the core layer', () => {
    const targets = graph.get('core/contract.ts')!;
    expect(targets.filter((t) => !t.startsWith('core/') && t !== 'backends/wasm/kernel-exports.ts')).toEqual([]);
  });

  it('never imports three.js from the main entry', () => {
    const reachable = new Set<string>();
    const walk = (file: string): void => {
      if (reachable.has(file)) return;
      reachable.add(file);
      for (const t of graph.get(file) ?? []) walk(t);
    };
    walk('index.ts');
    // Modules with no .ts source (the generated embedded-*.js, typed by .d.ts files) hold only base64 strings.
    const sources = [...reachable].filter((file) => graph.has(file));
    expect(sources.length).toBeGreaterThan(20);
    const three = sources.filter((file) => /from\s*['"]three['"/]/.test(readFileSync(join(src, file), 'utf8')));
    expect(three).toEqual([]);
  });
});
