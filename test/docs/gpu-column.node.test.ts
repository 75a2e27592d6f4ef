// The README's methods table says which methods have a GPU kernel (its column "GPU kernel"): it
// must agree with the kernel contract, where a kernel with a `gpu` field is a method of
// spring-solver/webgpu (src/methods/method-kernels.ts). A row's cell is "yes" when every method it
// names has one, "—" when none has, otherwise the list of those that have one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methodKernels } from '../../dist/methods/method-kernels.js';
import type { KernelSpec } from '../../dist/core/contract.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const gpuMethods = Object.entries(methodKernels as Record<string, KernelSpec>)
  .filter(([, kernel]) => kernel.gpu !== undefined)
  .map(([method]) => method)
  .sort();

/** The rows of the table whose header has the column "GPU kernel": [methods named in the first cell, the GPU cell]. */
function tableRows(): [string[], string][] {
  const lines = README.split('\n');
  const header = lines.findIndex((line) => line.startsWith('|') && line.includes('GPU kernel'));
  if (header < 0) return [];
  const columns = lines[header].split('|').map((cell) => cell.trim());
  const gpuColumn = columns.indexOf('GPU kernel');
  const rows: [string[], string][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    // method names: the backticked identifiers before any parenthesis (options such as `explicit` are not methods)
    const methods = [...cells[1].replace(/\([^)]*\)/g, '').matchAll(/`([A-Za-z]\w*)`/g)].map((m) => m[1]);
    rows.push([methods, cells[gpuColumn]]);
  }
  return rows;
}

describe('README methods table, column "GPU kernel"', () => {
  const rows = tableRows();

  it('is there, with the contract’s GPU methods among its rows', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(gpuMethods.length).toBeGreaterThan(0);
    const named = rows.flatMap(([methods]) => methods);
    expect(gpuMethods.filter((m) => !named.includes(m))).toEqual([]);
  });

  it('agrees with the contract in every row', () => {
    const wrong: string[] = [];
    for (const [methods, cell] of rows) {
      const withGpu = methods.filter((m) => gpuMethods.includes(m));
      const expected = withGpu.length === 0 ? '—' : withGpu.length === methods.length ? 'yes' : withGpu.map((m) => `\`${m}\``).join(', ');
      if (cell !== expected) wrong.push(`${methods.join(', ')}: "${cell}", the contract says "${expected}"`);
    }
    expect(wrong).toEqual([]);
  });
});
