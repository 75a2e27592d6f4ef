/**
 * Tests of the BVH parser and its rotation/position/velocity helpers (src/bvh/index.ts) on the real
 * capture data/pirouette.bvh (the three.js example, see data/README.md) and on small inline files.
 * Node only: reads a file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bvhLocalPositions, bvhLocalRotations, bvhVelocities, integrateAngularVelocity, parseBvh } from '../../src/bvh/index.js';
import { angle, inv, mul, toScaledAngleAxis } from '../../src/reference/quat.js';

const text = readFileSync(new URL('../../data/pirouette.bvh', import.meta.url), 'utf8');
const bvh = parseBvh(text);
const J = bvh.names.length;
const rotations = bvhLocalRotations(bvh);
const positions = bvhLocalPositions(bvh);
const { velocities, angularVelocities } = bvhVelocities(positions, rotations, J, bvh.frameTime);

// ---------------------------------------------------------------------------------------------
// independent helpers (plain matrices, no quaternion code)

type M3 = number[]; // row-major 3×3

function matMul(a: M3, b: M3): M3 {
  const c: M3 = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) c[3 * i + j]! += a[3 * i + k]! * b[3 * k + j]!;
  return c;
}

function transpose(a: M3): M3 {
  return [a[0]!, a[3]!, a[6]!, a[1]!, a[4]!, a[7]!, a[2]!, a[5]!, a[8]!];
}

/** Elementary rotation matrix about X, Y or Z by `deg` degrees (column vectors). */
function axisMatrix(axis: 'X' | 'Y' | 'Z', deg: number): M3 {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  if (axis === 'X') return [1, 0, 0, 0, c, -s, 0, s, c];
  if (axis === 'Y') return [c, 0, s, 0, 1, 0, -s, 0, c];
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

/** Rotation matrix of a unit quaternion [x, y, z, w]. */
function quatMatrix(q: ArrayLike<number>): M3 {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** Frame `f` of the file's MOTION section as float64 numbers, read straight from the text. */
function rawFrame(source: string, f: number): number[] {
  const lines = source.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim().startsWith('Frame Time:')) + 1;
  return lines[start + f]!.trim().split(/\s+/).map(Number);
}

/** Rotation matrix of joint j at frame f from the raw text, Euler order Z, Y, X (R = Rz · Ry · Rx). */
function eulerMatrix(f: number, j: number): M3 {
  const row = rawFrame(text, f);
  const [z, y, x] = row.slice(3 * j, 3 * j + 3) as [number, number, number];
  return matMul(matMul(axisMatrix('Z', z), axisMatrix('Y', y)), axisMatrix('X', x));
}

function quatAt(f: number, j: number): Float32Array {
  const o = (f * J + j) * 4;
  return rotations.subarray(o, o + 4);
}

function vec3At(a: Float32Array, f: number, j: number): Float32Array {
  const o = (f * J + j) * 3;
  return a.subarray(o, o + 3);
}

// ---------------------------------------------------------------------------------------------

describe('parseBvh on pirouette.bvh', () => {
  it('reads the hierarchy: 20 joints, 5 end sites skipped', () => {
    expect(J).toBe(20);
    expect(bvh.names[0]).toBe('hip');
    expect(bvh.parents[0]).toBe(-1);
    expect(bvh.names).not.toContain('Site');
    expect(bvh.names).not.toContain('End');
    // independent count of the joint keywords in the text
    expect(text.match(/^\s*(ROOT|JOINT)\s/gm)!.length).toBe(20);
    expect(text.match(/^\s*End Site/gm)!.length).toBe(5);
    expect(bvh.endSiteParents.length).toBe(5);
    expect(Array.from(bvh.endSiteParents, (p) => bvh.names[p])).toEqual(['neck', 'rhand', 'lhand', 'rfoot', 'lfoot']);
    const parentOf = (name: string) => bvh.names[bvh.parents[bvh.names.indexOf(name)]!];
    expect(parentOf('abdomen')).toBe('hip');
    expect(parentOf('chest')).toBe('abdomen');
    expect(parentOf('rcollar')).toBe('chest');
    expect(parentOf('lcollar')).toBe('chest');
    expect(parentOf('lhand')).toBe('lforearm');
    expect(parentOf('rbuttock')).toBe('hip');
    expect(parentOf('lfoot')).toBe('lshin');
    for (let j = 1; j < J; j++) expect(bvh.parents[j]).toBeLessThan(j); // parents come first (depth-first order)
    // OFFSETs are stored as float32: compare against the float32 rounding of the text values
    const chest = bvh.names.indexOf('chest');
    expect(Array.from(bvh.offsets.subarray(3 * chest, 3 * chest + 3))).toEqual([0, Math.fround(11.7043), Math.fround(-0.48768)]);
    expect(Array.from(bvh.endSiteOffsets.subarray(0, 3))).toEqual([0, 10, 0]);
  });

  it('reads the motion: 592 frames, frame time 0.00833333, 60 channels per frame', () => {
    expect(bvh.frameCount).toBe(592);
    expect(bvh.frameTime).toBe(0.00833333);
    expect(bvh.channelCount).toBe(60);
    expect(bvh.channels.length).toBe(592 * 60);
    for (const names of bvh.channelNames) expect(names).toEqual(['Zrotation', 'Yrotation', 'Xrotation']);
    expect(Array.from(bvh.channelStart)).toEqual(Array.from({ length: 20 }, (_, j) => 3 * j));
    // raw values are float32 roundings of the text, in file order
    for (const f of [0, 1, 300, 591]) {
      const row = rawFrame(text, f);
      expect(row.length).toBe(60);
      expect(Array.from(bvh.channels.subarray(60 * f, 60 * f + 60))).toEqual(row.map(Math.fround));
    }
  });

  it('rejects malformed files', () => {
    expect(() => parseBvh(text.replace('Frames: 592', 'Frames: 593'))).toThrow(/motion values/);
    expect(() => parseBvh(text.replace('Zrotation', 'Wrotation'))).toThrow(/unknown channel/);
    expect(() => parseBvh(text.replace('MOTION', '}\nMOTION'))).toThrow(/unbalanced/);
  });
});

describe('bvhLocalRotations on pirouette.bvh', () => {
  it('gives unit quaternions', () => {
    expect(rotations.length).toBe(592 * 20 * 4);
    let worst = 0;
    for (let i = 0; i < rotations.length; i += 4) {
      worst = Math.max(worst, Math.abs(Math.hypot(rotations[i]!, rotations[i + 1]!, rotations[i + 2]!, rotations[i + 3]!) - 1));
    }
    // normalized in float64, then each component rounded to float32 (≤ 2⁻²⁴ relative): |q| - 1 ≤ ~1.2e-7
    expect(worst).toBeLessThan(1e-6);
  });

  it('matches R = Rz · Ry · Rx built independently from the Euler angles of the text', () => {
    for (const [f, name] of [
      [1, 'hip'],
      [14, 'hip'], // the hip's Z channel wraps from 179.85 to -179.746 here
      [300, 'rshldr'],
      [450, 'lforearm'],
      [591, 'rthigh'],
    ] as const) {
      const j = bvh.names.indexOf(name);
      // float32 storage of the degrees (≤ 180 · 2⁻²⁴ ≈ 1e-5 ° ≈ 2e-7 rad per angle) and of the
      // quaternion (≤ 6e-8 per component) move matrix entries by < 1e-6; 2e-6 allows both
      expect(maxDiff(quatMatrix(quatAt(f, j)), eulerMatrix(f, j))).toBeLessThan(2e-6);
    }
  });

  it('keeps consecutive frames in one hemisphere', () => {
    for (let j = 0; j < J; j++) {
      expect(quatAt(0, j)[3]).toBeGreaterThanOrEqual(0);
      for (let f = 1; f < bvh.frameCount; f++) {
        const a = quatAt(f - 1, j);
        const b = quatAt(f, j);
        expect(a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!).toBeGreaterThanOrEqual(0);
      }
    }
    // across the Euler wrap of the hip (frame 13 → 14) the quaternion moves continuously
    const hip = quatAt(14, 0);
    const prev = quatAt(13, 0);
    const step = Math.hypot(hip[0]! - prev[0]!, hip[1]! - prev[1]!, hip[2]! - prev[2]!, hip[3]! - prev[3]!);
    expect(step).toBeLessThan(0.05); // one frame of motion: angle(step) ≈ 0.015 rad, 4D chord ≈ half of it
  });
});

describe('bvhVelocities on pirouette.bvh', () => {
  it('positions are the fixed OFFSETs (no position channels), so linear velocities are exactly 0', () => {
    for (let f = 0; f < bvh.frameCount; f++) {
      expect(Array.from(positions.subarray(f * J * 3, (f + 1) * J * 3))).toEqual(Array.from(bvh.offsets));
    }
    expect(velocities.every((v) => v === 0)).toBe(true);
  });

  it('angular velocity matches a finite difference of independently built rotation matrices', () => {
    const dt = bvh.frameTime;
    for (const [f, name] of [
      [100, 'rshldr'],
      [300, 'lforearm'],
      [450, 'hip'],
      [200, 'rthigh'],
    ] as const) {
      const j = bvh.names.indexOf(name);
      // relative rotation R(t+1) R(t-1)ᵀ (parent frame), its angle and axis from trace and skew part
      const rel = matMul(eulerMatrix(f + 1, j), transpose(eulerMatrix(f - 1, j)));
      const theta = Math.acos(Math.min(1, Math.max(-1, (rel[0]! + rel[4]! + rel[8]! - 1) / 2)));
      const k = theta / (2 * Math.sin(theta)) / (2 * dt);
      const expected = [(rel[7]! - rel[5]!) * k, (rel[2]! - rel[6]!) * k, (rel[3]! - rel[1]!) * k];
      const got = vec3At(angularVelocities, f, j);
      const magnitude = Math.hypot(...expected);
      expect(magnitude).toBeGreaterThan(0.3); // a frame where the joint really moves
      // float32 storage of the quaternions (~1.2e-7 rad each) divided by 2 dt ≈ 0.0167 s gives ~1.5e-5 rad/s,
      // plus float32 channels (~2e-7 rad per angle) and the float32 result: 1e-4 rad/s covers all
      expect(maxDiff(got, expected)).toBeLessThan(1e-4);
    }
  });

  it('integrating ω over dt reproduces the next frame to the second-order bound', () => {
    // With a = log(q[t+1] q[t]⁻¹), b = log(q[t] q[t-1]⁻¹) (scaled angle axis), the central difference is
    // ω dt = ½ log(exp(a) exp(b)) = (a + b)/2 + (a × b)/4 + O(3) (Baker–Campbell–Hausdorff), so advancing
    // q[t] by it misses q[t+1] by (a - b)/2 - (a × b)/2 + O(3): error ≤ ½|a - b| + ½|a × b| + |third order|.
    // We allow (|a| + |b|)³ / 12 for the third-order BCH terms and 1e-6 rad for float32 storage of the
    // quaternions and of ω. A ω in the wrong frame (child instead of parent) fails this bound on about
    // half of the frames, since its error is first order in the per-frame rotation.
    const dt = bvh.frameTime;
    const norm = (v: ArrayLike<number>) => Math.hypot(v[0]!, v[1]!, v[2]!);
    let worstRatio = 0;
    for (let f = 1; f < bvh.frameCount - 1; f++) {
      for (let j = 0; j < J; j++) {
        const qp = quatAt(f - 1, j),
          qt = quatAt(f, j),
          qn = quatAt(f + 1, j);
        const err = angle(mul(qn, inv(integrateAngularVelocity(qt, vec3At(angularVelocities, f, j), dt))));
        const a = toScaledAngleAxis(mul(qn, inv(qt)));
        const b = toScaledAngleAxis(mul(qt, inv(qp)));
        const cross = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
        const s = norm(a) + norm(b);
        const bound = 0.5 * norm([a[0] - b[0], a[1] - b[1], a[2] - b[2]]) + 0.5 * norm(cross) + (s * s * s) / 12 + 1e-6;
        expect(err).toBeLessThanOrEqual(bound);
        if (s > 1e-3) worstRatio = Math.max(worstRatio, err / s);
      }
    }
    // the bound is not vacuous: somewhere the error is a sizeable fraction of the per-frame motion
    expect(worstRatio).toBeGreaterThan(0.01);
  });

  it('one-sided differences at the ends are exact', () => {
    const dt = bvh.frameTime;
    const last = bvh.frameCount - 1;
    for (let j = 0; j < J; j++) {
      const w0 = vec3At(angularVelocities, 0, j);
      const wl = vec3At(angularVelocities, last, j);
      // q[1] = exp(ω0 dt / 2) q[0] up to float32 storage of q and ω (~1e-6 rad with ω up to ~100 rad/s)
      expect(angle(mul(quatAt(1, j), inv(integrateAngularVelocity(quatAt(0, j), w0, dt))))).toBeLessThan(2e-6);
      const back = integrateAngularVelocity(quatAt(last, j), [-wl[0]!, -wl[1]!, -wl[2]!], dt);
      expect(angle(mul(quatAt(last - 1, j), inv(back)))).toBeLessThan(2e-6);
    }
  });
});

describe('inline BVH with position channels and other rotation orders', () => {
  // root: X/Y/Z position then Y, X, Z rotation; child: X rotation, Z position, Z rotation, Y rotation.
  // positions follow x(t) = 1 + 2t + 3t² (t = 0, 0.5, ..., 2): 1, 2.75, 6, 10.75, 17 (all exact binary fractions).
  // the child turns about Z by 10° per frame (20°/s) with X = Y = 0.
  const small = `HIERARCHY
ROOT root
{
  OFFSET 1 2 3
  CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation
  JOINT child
  {
    OFFSET 0 5 0.5
    CHANNELS 4 Xrotation Zposition Zrotation Yrotation
    End Site
    {
      OFFSET 0 1 0
    }
  }
}
MOTION
Frames: 5
Frame Time: 0.5
1 -1 0 30 -20 50 0 -4 0 0
2.75 -1 0 35 -25 45 0 -4 10 0
6 -1 0 40 -30 40 0 -4 20 0
10.75 -1 0 45 -35 35 0 -4 30 0
17 -1 0 50 -40 30 0 -4 40 0
`;
  const b = parseBvh(small);
  const rot = bvhLocalRotations(b);
  const pos = bvhLocalPositions(b);
  const vel = bvhVelocities(pos, rot, 2, b.frameTime);

  it('parses the layout', () => {
    expect(b.names).toEqual(['root', 'child']);
    expect(Array.from(b.parents)).toEqual([-1, 0]);
    expect(b.channelCount).toBe(10);
    expect(Array.from(b.channelStart)).toEqual([0, 6]);
    expect(b.endSiteParents.length).toBe(1);
  });

  it('stores positions from position channels, else the OFFSET component', () => {
    const xs = [1, 2.75, 6, 10.75, 17];
    for (let f = 0; f < 5; f++) {
      expect(Array.from(pos.subarray(6 * f, 6 * f + 3))).toEqual([xs[f], -1, 0]); // root: all three from channels
      expect(Array.from(pos.subarray(6 * f + 3, 6 * f + 6))).toEqual([0, 5, -4]); // child: x, y from OFFSET, z from channel
    }
  });

  it('composes rotation channels in file order, whatever the order', () => {
    for (let f = 0; f < 5; f++) {
      const row = rawFrame(small, f);
      const rootM = matMul(matMul(axisMatrix('Y', row[3]!), axisMatrix('X', row[4]!)), axisMatrix('Z', row[5]!));
      const childM = matMul(matMul(axisMatrix('X', row[6]!), axisMatrix('Z', row[8]!)), axisMatrix('Y', row[9]!));
      // float32 quaternion storage: matrix entries within ~5e-7
      expect(maxDiff(quatMatrix(rot.subarray(8 * f, 8 * f + 4)), rootM)).toBeLessThan(1e-6);
      expect(maxDiff(quatMatrix(rot.subarray(8 * f + 4, 8 * f + 8)), childM)).toBeLessThan(1e-6);
    }
  });

  it('linear velocities are the known finite differences of the quadratic', () => {
    // central differences are exact for a quadratic: v = 2 + 6t at t = 0.5, 1, 1.5 → 5, 8, 11;
    // one-sided ends: (2.75 - 1) / 0.5 = 3.5 and (17 - 10.75) / 0.5 = 12.5; all exact in float32
    const expected = [3.5, 5, 8, 11, 12.5];
    for (let f = 0; f < 5; f++) {
      expect(Array.from(vel.velocities.subarray(6 * f, 6 * f + 6))).toEqual([expected[f], 0, 0, 0, 0, 0]);
    }
  });

  it('angular velocity of a constant-rate Z turn is 20°/s about z at every frame', () => {
    const omega = (20 * Math.PI) / 180;
    for (let f = 0; f < 5; f++) {
      const w = vel.angularVelocities.subarray(6 * f + 3, 6 * f + 6);
      // float32 quaternion rounding (~1.2e-7 rad) over a span of ≥ 0.5 s, plus float32 ω: < 1e-6 rad/s
      expect(maxDiff(w, [0, 0, omega])).toBeLessThan(1e-6);
    }
  });
});
