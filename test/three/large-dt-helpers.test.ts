/**
 * The solver-less helpers of spring-solver/three (spring3, damper…) have no solver: a dt that
 * looks like milliseconds (≥ 1 s) warns once for all of them together, per page or process
 * (src/core/dt.ts). This file's module state is its own (vitest isolates test files), so the
 * first call ≥ 1 s here is the first of the page. Silencing: large-dt-helpers-silenced.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Euler, Quaternion, Vector3 } from 'three';
import { createSolver } from '../../dist/index.js';
import { damper, damper3, damperQuat, spring, spring3, springAngle, springEuler, springQuat } from '../../dist/three/index.js';

const HELPERS =
  "This warning is shown once per page (or process) for spring-solver/three's solver-less helpers; " +
  'silence it with createSolver({ warnLargeDt: false })';

function message(method: string, dt: number): string {
  return `spring-solver: ${method} got dt = ${dt}; dt is in seconds (1/60 ≈ 0.0167 for a 60 Hz frame). ${HELPERS}`;
}

/** One call of every solver-less helper with dt. */
function everyHelper(dt: number): void {
  spring({ a: 0 }, 'a', 1, 0.3, dt);
  springAngle({ a: 0 }, 'a', 1, 0.3, dt);
  spring3(new Vector3(), new Vector3(1, 2, 3), 0.3, dt);
  springEuler(new Euler(), new Euler(0.1, 0.2, 0.3), 0.3, dt);
  springQuat(new Quaternion(), new Quaternion(0, 0, 1, 0), 0.3, dt);
  damper(0, 1, 0.3, dt);
  damper3(new Vector3(), new Vector3(1, 2, 3), 0.3, dt);
  damperQuat(new Quaternion(), new Quaternion(0, 0, 1, 0), 0.3, dt);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the solver-less helpers and a dt ≥ 1 s', () => {
  it('warn once for all of them, naming the first call, not below 1 s, and run as usual', async () => {
    // Solvers created with warnLargeDt left at its default, or true, leave the helpers' warning due.
    (await createSolver({ backend: 'js' })).dispose();
    (await createSolver({ backend: 'js', warnLargeDt: true })).dispose();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const dt of [0, 1 / 60, 0.999_999]) everyHelper(dt);
    expect(warn).not.toHaveBeenCalled();
    const value = new Vector3(0, 0, 0);
    spring3(value, new Vector3(1, 2, 3), 5, 16.7);
    expect(warn.mock.calls).toEqual([[message('spring3', 16.7)]]);
    // Critical spring from rest (Spring-It-On): x = g + (j0 + j0·y·t)·e^{−y·t}, y = 2·ln2/halflife.
    const y = (2 * Math.LN2) / 5;
    const closed = (g: number) => g - g * (1 + y * 16.7) * Math.exp(-y * 16.7);
    expect(value.x).toBeCloseTo(closed(1), 12);
    expect(value.z).toBeCloseTo(closed(3), 12);
    expect(damper(0, 1, 0.5, 16.7)).toBe(1 - Math.exp((-Math.LN2 * 16.7) / 0.5));
    for (const dt of [1, 16.7, 1000]) everyHelper(dt);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("a solver's warning is its own: a solver still warns after the helpers have", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const solver = await createSolver({ backend: 'js' });
    const x = new Float32Array(3);
    solver.damper(x, new Float32Array([1, 2, 3]), 0.3, 16.7);
    expect(warn.mock.calls).toEqual([[expect.stringContaining('spring-solver: damper got dt = 16.7; dt is in seconds')]]);
    expect(warn.mock.calls[0]![0]).toContain('This warning is shown once per solver;');
    everyHelper(16.7);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
