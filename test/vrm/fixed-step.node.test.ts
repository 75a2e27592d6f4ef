/**
 * fixedStep makes the spring bones' motion independent of the frame rate (issue 17's target): one
 * procedural avatar (walking, turning, teleporting) at 30, 90, 120 and 240 Hz against 60 Hz, its
 * bones' rotations every 0.1 s for 4 s; the 95th percentile angle from the 60 Hz run must be at most
 * 0.25× what three-vrm's own runs at those rates differ from its 60 Hz run. Node only (about 10 s):
 * the benchmark (suite vrm) prints the same numbers.
 */
import { describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import { rateIndependence } from '../fixtures/vrm-rates.js';

describe('SpringBones fixedStep 1/60', () => {
  it('moves the bones the same at 30, 90, 120 and 240 Hz: ≤ 0.25× three-vrm’s own difference from 60 Hz', async () => {
    const solver = await createSolver({ backend: 'simd' });
    const rates = rateIndependence(solver);
    expect(rates.map((r) => r.hz)).toEqual([30, 90, 120, 240]);
    for (const { hz, theirs, ours, ratio } of rates) {
      expect(theirs, `${hz} Hz: three-vrm's own runs differ`).toBeGreaterThan(0.05);
      expect(ratio, `${hz} Hz: ${ours} rad against three-vrm's ${theirs} rad`).toBeLessThanOrEqual(0.25);
    }
    solver.dispose();
  }, 120_000);
});
