/**
 * createSolver({ warnLargeDt: false }) silences the solver-less helpers of spring-solver/three
 * too (they have no solver of their own to pass the option to; src/core/dt.ts). A file of its
 * own: vitest isolates test files, so the helpers' warning is still due when this file starts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Vector3 } from 'three';
import { createSolver } from '../../dist/index.js';
import { damper, spring3 } from '../../dist/three/index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createSolver({ warnLargeDt: false }) and the solver-less helpers', () => {
  it('silences them for the page or process (the solver created may be disposed)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    (await createSolver({ backend: 'js', warnLargeDt: false })).dispose();
    const value = spring3(new Vector3(), new Vector3(1, 2, 3), 0.3, 16.7);
    expect(damper(0, 1, 0.5, 16.7)).toBe(1 - Math.exp((-Math.LN2 * 16.7) / 0.5));
    expect(value.x).toBeCloseTo(1, 6);
    expect(warn).not.toHaveBeenCalled();
  });
});
