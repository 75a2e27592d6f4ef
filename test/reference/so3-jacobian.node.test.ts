/**
 * The SO(3) Jacobian in the quaternion inertialization (src/reference/so3-jacobian.ts,
 * assembly/quat/so3-jacobian.ts), measured on the pirouette: transitions from the pose at one frame
 * (with its angular velocities) to the pose at another, within the moving part (0.5–2.0 s).
 *
 * The measure: per bone, the jump of the output's TRUE angular velocity at the transition (the
 * central difference of the output rotation, the offset's rotation vector advancing at its rate
 * offW and the destination at its angular velocity), against the speed before it. With the
 * Jacobian the jump is only the difference's truncation; Holden's model (the rate taken for the
 * angular velocity) leaves (J − I)·offW, about 0.15 of the speed with these 2–3 rad offsets.
 * Node only: reads the BVH file (data/pirouette.bvh).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bvhLocalRotations, bvhVelocities, bvhLocalPositions, parseBvh } from '../../dist/bvh/index.js';
import { createSolver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { mulberry32, uniform } from '../helpers/random.js';

const { quat } = reference;
const { abs, fromScaledAngleAxis, inv, mul, rotate, toScaledAngleAxis } = quat;
const text = readFileSync(new URL('../../data/pirouette.bvh', import.meta.url), 'utf8');
const bvh = parseBvh(text);
const B = bvh.names.length;
const rotations = bvhLocalRotations(bvh);
const { angularVelocities } = bvhVelocities(bvhLocalPositions(bvh), rotations, B, bvh.frameTime);

type V3 = [number, number, number];
const norm = (v: ArrayLike<number>) => Math.hypot(v[0]!, v[1]!, v[2]!);
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const add = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;

/** Pairs of frames (source, destination) in 0.5–2.0 s, at least 0.3 s apart. */
function pairs(count: number): [number, number][] {
  const rng = mulberry32(33);
  const frame = (t: number) => Math.round(t / bvh.frameTime);
  const list: [number, number][] = [];
  while (list.length < count) {
    const a = uniform(rng, 0.5, 2.0),
      b = uniform(rng, 0.5, 2.0);
    if (Math.abs(a - b) >= 0.3) list.push([frame(a), frame(b)]);
  }
  return list;
}
const slice = (a: Float32Array, f: number, width: number) => a.slice(f * B * width, (f + 1) * B * width);

/**
 * Jump ratios |ω_after − ω_before| / |ω_before| (bones faster than 0.2 rad/s) of the true output
 * angular velocity, offsets starting at zero; `rate(offQ, ω)` is what the model stores as offW
 * for an offset angular velocity ω (J⁻¹ω, or ω itself for Holden's model).
 */
function jumps(rate: (q: number[], w: V3) => V3): number[] {
  const ratios: number[] = [];
  for (const [f0, f1] of pairs(20)) {
    const srcQ = slice(rotations, f0, 4),
      srcW = slice(angularVelocities, f0, 3);
    const dstQ = slice(rotations, f1, 4),
      dstW = slice(angularVelocities, f1, 3);
    for (let j = 0; j < B; j++) {
      const before = srcW.subarray(3 * j, 3 * j + 3); // zero offsets: the output is the source
      if (norm(before) < 0.2) continue;
      const sq = Array.from(srcQ.subarray(4 * j, 4 * j + 4)),
        dq = Array.from(dstQ.subarray(4 * j, 4 * j + 4));
      const dw = dstW.subarray(3 * j, 3 * j + 3);
      const offQ = abs(mul(sq, inv(dq))); // the transition's offset: the output does not move
      const offW = rate(offQ, sub(before, rotate(offQ, dw)));
      // the output just after: offset exp(r + t·offW) ⊗ destination advancing at dw
      const r = toScaledAngleAxis(offQ);
      const at = (t: number) =>
        mul(
          fromScaledAngleAxis(
            add(
              r,
              offW.map((v) => v * t),
            ),
          ),
          mul(fromScaledAngleAxis(dw.map((v) => v * t)), dq),
        );
      const eps = 1e-6;
      const after = toScaledAngleAxis(mul(at(eps), inv(at(-eps)))).map((v) => v / (2 * eps));
      ratios.push(norm(sub(after, before)) / norm(before));
    }
  }
  return ratios;
}

describe('SO(3) Jacobian in the quaternion inertialization (pirouette transitions)', () => {
  it('the true angular velocity is continuous with J⁻¹ (the reference transition), not with Holden’s rate-as-velocity', () => {
    // the reference transition's offW, for zero offsets before
    const withJacobian = jumps((q, w) => {
      const offQ = new Float64Array(4),
        offW = new Float64Array(3);
      offQ[3] = 1;
      reference.quatInertializeTransition(offQ, offW, q, w, [0, 0, 0, 1], [0, 0, 0]);
      return Array.from(offW) as V3;
    });
    const holden = jumps((_q, w) => w);
    const result = { withJacobian: median(withJacobian), holden: median(holden), bones: withJacobian.length };
    console.log('median true angular velocity jump / speed:', result);
    // central difference over ±1e-6 s: truncation ~ε²·|ω|³ with |ω|, |offW| up to ~50 rad/s is
    // ≈ 1.3e-7 rad/s, rounding 1e-16/1e-6 = 1e-10; against speeds ≥ 0.2 rad/s: < 1e-6, so 1e-5
    expect(Math.max(...withJacobian)).toBeLessThan(1e-5);
    expect(result.holden).toBeGreaterThan(0.05);
  });

  it('every backend keeps the output angular velocity (J·offW + rotate(offQ, w)) continuous on these transitions', async () => {
    const n = pairs(20).length * B;
    for (const backend of ['js', 'wasm', 'simd'] as const) {
      const s = await createSolver({ backend });
      const offQ = s.alloc(4 * n),
        offW = s.alloc(3 * n),
        srcQ = s.alloc(4 * n),
        srcW = s.alloc(3 * n),
        dstQ = s.alloc(4 * n),
        dstW = s.alloc(3 * n);
      pairs(20).forEach(([f0, f1], k) => {
        srcQ.set(slice(rotations, f0, 4), 4 * B * k);
        srcW.set(slice(angularVelocities, f0, 3), 3 * B * k);
        dstQ.set(slice(rotations, f1, 4), 4 * B * k);
        dstW.set(slice(angularVelocities, f1, 3), 3 * B * k);
      });
      // offsets from an earlier transition (large ones), then a second transition
      for (let i = 0; i < n; i++) offQ.set([0, 0, 0, 1], 4 * i);
      s.quatInertializeTransition(offQ, offW, dstQ, dstW, srcQ, srcW);
      const beforeQ = s.alloc(4 * n),
        beforeW = s.alloc(3 * n),
        afterQ = s.alloc(4 * n),
        afterW = s.alloc(3 * n);
      s.quatInertializeUpdate(beforeQ, beforeW, offQ, offW, srcQ, srcW, 0.1, 0);
      s.quatInertializeTransition(offQ, offW, srcQ, srcW, dstQ, dstW);
      s.quatInertializeUpdate(afterQ, afterW, offQ, offW, dstQ, dstW, 0.1, 0);
      for (let i = 0; i < n; i++) {
        const b = beforeW.subarray(3 * i, 3 * i + 3);
        // float32: a few roundings of values of size |ω| ≤ 2·max speed, and the Jacobian's ε·|offW|
        expect(norm(sub(afterW.subarray(3 * i, 3 * i + 3), b)), `${backend} bone ${i}`).toBeLessThan(
          1e-5 * (1 + norm(b) + norm(offW.subarray(3 * i, 3 * i + 3))),
        );
      }
      s.dispose();
    }
  });
});
