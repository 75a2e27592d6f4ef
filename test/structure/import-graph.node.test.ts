/**
 * The layering of src/: the folders form layers that import only downward (CONTRIBUTING.md, "Where
 * things are"), no file takes part in an import circle (type imports included), and the method
 * families import only the kernel contract and the float64 reference.
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

/**
 * The folders of src/, lowest first: a file may import its own folder and the folders before it,
 * never one after it. Files at the top of src/ (the entry points) and a folder not listed here
 * (a new one) are above every layer: they may import any layer, and no layer may import them.
 */
const LAYERS = [
  'core',
  'plain',
  'reference',
  'methods',
  'base',
  'backends',
  'api',
  'stateful',
  'three',
  'vrm',
  'bvh',
  'webgpu',
  'three-webgpu',
];

function layerOf(file: string): number {
  const slash = file.indexOf('/');
  const rank = slash < 0 ? -1 : LAYERS.indexOf(file.slice(0, slash));
  return rank < 0 ? LAYERS.length : rank;
}

/** Every import from a layer to a higher one, as `file → target`. */
function upwardImports(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} → ${t}`));
}

describe('src/ layering', () => {
  const graph = importGraph();

  it('reads the imports of every source file', () => {
    expect(graph.get('base/solver.ts')).toContain('core/contract.ts');
    expect(graph.get('api/solver.ts')).toEqual(['base/solver.ts']);
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

  it('finds an upward import when there is one (the detector itself)', () => {
    const graph = new Map([
      ['core/contract.ts', ['core/types.ts', 'backends/wasm/kernel-exports.ts']],
      ['backends/js-solver.ts', ['api/solver.ts', 'base/solver.ts', 'reference/spring.ts']],
      ['api/create-solver.ts', ['backends/js-solver.ts', 'index.ts', 'xr/bones.ts']],
      ['xr/bones.ts', ['three/damp.ts', 'index.ts']],
      ['index.ts', ['api/create-solver.ts', 'xr/bones.ts']],
    ]);
    expect(upwardImports(graph)).toEqual([
      'core/contract.ts → backends/wasm/kernel-exports.ts',
      'backends/js-solver.ts → api/solver.ts',
      'api/create-solver.ts → index.ts',
      'api/create-solver.ts → xr/bones.ts',
    ]);
  });

  it('imports only downward: every folder imports its own layer and those below it', () => {
    expect(upwardImports(graph)).toEqual([]);
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

  it('keeps the core layer a leaf: core/ imports only core/', () => {
    expect(graph.get('core/contract.ts')).toContain('core/kernel-exports.ts');
    const outside = [...graph]
      .filter(([file]) => file.startsWith('core/'))
      .flatMap(([file, targets]) => targets.filter((t) => !t.startsWith('core/')).map((t) => `${file} → ${t}`));
    expect(outside).toEqual([]);
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
