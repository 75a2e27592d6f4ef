/**
 * What `npm publish` would ship: the files (from `npm pack --dry-run --json`), every export
 * target among them, source maps a user's debugger can follow, and the package fields.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packedFiles, root } from '../helpers/pack.js';

const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const packed = packedFiles();

/** Every file path named by the exports map (wildcards left out). */
function exportTargets(node: unknown): string[] {
  if (typeof node === 'string') return node.includes('*') ? [] : [node.replace(/^\.\//, '')];
  return Object.values(node as Record<string, unknown>).flatMap(exportTargets);
}

describe('the published package', () => {
  it('ships the built code, both wasm builds, the README and the changelog', () => {
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/backends/wasm/spring-solver.simd.wasm',
      'dist/backends/wasm/spring-solver.scalar.wasm',
      'README.md',
      'CHANGELOG.md',
    ]) {
      expect(packed).toContain(file);
    }
  });

  it('ships no images, tests, sources of the kernels, benchmark results or demo and test data (the BVH capture, the Fox, the VRM fixture)', () => {
    expect(packed.filter((f) => /\.(png|jpe?g|bvh|glb|vrm)$|^(test|assembly|bench|demo|src|data)\//.test(f))).toEqual([]);
  });

  it('ships every file its exports map names', () => {
    const targets = exportTargets(pkg.exports);
    expect(targets.length).toBeGreaterThan(8);
    expect(targets.filter((t) => !packed.includes(t))).toEqual([]);
  });

  it('ships source maps that carry their sources, so a debugger shows the TypeScript', () => {
    const maps = packed.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(20);
    const incomplete = maps.filter((file) => {
      const map = JSON.parse(readFileSync(`${root}${file}`, 'utf8'));
      return !(
        Array.isArray(map.sourcesContent) &&
        map.sourcesContent.length === map.sources.length &&
        map.sourcesContent.every((s: unknown) => typeof s === 'string')
      );
    });
    expect(incomplete).toEqual([]);
  });

  it('says where it lives and which Node it needs (require() of ESM: ≥ 20.19)', () => {
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    expect(pkg.keywords).toContain('spring');
    expect(pkg.engines.node).toBe('>=20.19');
  });
});
