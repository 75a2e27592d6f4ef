/**
 * Strided springs (springStrided, InstancedSprings, AttributeSprings) against the packed solver
 * methods on every backend: the same items give the same results, and no float outside the
 * items changes. js and wasm run the same float64 formula as the packed kernels (bit-identical);
 * SIMD runs float32 lanes where the packed kernel may have run its float64 tail, or the reverse,
 * so there the bound is the float32 rounding of the transition's terms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BufferAttribute,
  BoxGeometry,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  Matrix4,
  MeshBasicMaterial,
  Quaternion,
  Vector3,
} from 'three';
import { springStrided, SpringMode, type Solver, type StridedSpringParams } from '../../dist/index.js';
import { quatSimpleSpringDamper, springTransition, stiffnessAndDamping } from '../../dist/reference/index.js';
import { AttributeSprings, InstancedSprings } from '../../dist/three/index.js';
import { BACKENDS, makeSolver } from '../helpers/backends.js';
import { mulberry32, uniform } from '../helpers/random.js';

const U32 = 2 ** -24;
const SENTINEL = 12345.5;

interface Layout {
  name: string;
  width: number;
  xStride: number;
  xOffset: number;
  vStride: number;
  vOffset: number;
  sameBuffer: boolean;
}
const LAYOUTS: Layout[] = [
  { name: 'instance matrices (16, 12) × 3', width: 3, xStride: 16, xOffset: 12, vStride: 3, vOffset: 0, sameBuffer: false },
  { name: 'interleaved x|v (6) × 3', width: 3, xStride: 6, xOffset: 0, vStride: 6, vOffset: 3, sameBuffer: true },
  { name: 'interleaved v|x (7) × 3', width: 3, xStride: 7, xOffset: 4, vStride: 7, vOffset: 0, sameBuffer: true },
  { name: 'width 4 stride 5', width: 4, xStride: 5, xOffset: 1, vStride: 4, vOffset: 0, sameBuffer: false },
  { name: 'width 6 stride 9 (two vectors a item)', width: 6, xStride: 9, xOffset: 2, vStride: 6, vOffset: 0, sameBuffer: false },
  { name: 'width 1 stride 3', width: 1, xStride: 3, xOffset: 2, vStride: 1, vOffset: 0, sameBuffer: false },
  { name: 'width 2 packed', width: 2, xStride: 2, xOffset: 0, vStride: 2, vOffset: 0, sameBuffer: false },
];

interface Mode {
  name: string;
  params: StridedSpringParams;
  mode: SpringMode;
  p: [number, number];
  g: boolean;
  q: boolean;
  packed: (s: Solver, x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, dt: number) => void;
}
const MODES: Mode[] = [
  {
    name: 'critical',
    params: { halflife: 0.2 },
    mode: SpringMode.Critical,
    p: [0.2, 0],
    g: true,
    q: true,
    packed: (s, x, v, g, q, dt) => s.criticalSpringDamper(x, v, g, q, 0.2, dt),
  },
  {
    name: 'simple (no q)',
    params: { halflife: 0.3 },
    mode: SpringMode.Critical,
    p: [0.3, 0],
    g: true,
    q: false,
    packed: (s, x, v, g, _q, dt) => s.simpleSpringDamper(x, v, g, 0.3, dt),
  },
  {
    name: 'decay (no g, q)',
    params: { halflife: 0.15 },
    mode: SpringMode.Critical,
    p: [0.15, 0],
    g: false,
    q: false,
    packed: (s, x, v, _g, _q, dt) => s.decaySpringDamper(x, v, 0.15, dt),
  },
  {
    name: 'frequency',
    params: { frequency: 2.5, halflife: 0.4 },
    mode: SpringMode.FrequencyHalflife,
    p: [2.5, 0.4],
    g: true,
    q: true,
    packed: (s, x, v, g, q, dt) => s.springDamper(x, v, g, q, 2.5, 0.4, dt),
  },
  {
    name: 'ratio',
    params: { dampingRatio: 1.7, halflife: 0.25 },
    mode: SpringMode.RatioHalflife,
    p: [1.7, 0.25],
    g: true,
    q: true,
    packed: (s, x, v, g, q, dt) => s.springDamperRatio(x, v, g, q, 1.7, 0.25, dt),
  },
  {
    name: 'stiffness',
    params: { stiffness: 0, damping: 3 },
    mode: SpringMode.StiffnessDamping,
    p: [0, 3],
    g: true,
    q: true,
    packed: (s, x, v, g, q, dt) => s.springDamperStiffness(x, v, g, q, 0, 3, dt),
  },
];
const COUNTS = [0, 1, 2, 5, 257];
const DT = 1 / 60;

describe.each(BACKENDS)('strided springs on %s', (backend) => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await makeSolver(backend, 16 * 1024 * 1024);
  });
  afterAll(() => solver.dispose());

  for (const layout of LAYOUTS) {
    it(`match the packed methods: ${layout.name}`, () => {
      const rng = mulberry32(layout.xStride * 31 + layout.width);
      for (const mode of MODES) {
        for (const count of COUNTS) {
          const w = layout.width;
          const n = count * w;
          const px = solver.alloc(n),
            pv = solver.alloc(n),
            pg = solver.alloc(n),
            pq = solver.alloc(n);
          for (let i = 0; i < n; i++) {
            px[i] = uniform(rng, -10, 10);
            pv[i] = uniform(rng, -20, 20);
            pg[i] = uniform(rng, -10, 10);
            pq[i] = uniform(rng, -20, 20);
          }
          const x0 = px.slice(),
            v0 = pv.slice();
          // The strided layout, every other float a sentinel.
          const xLength = count === 0 ? 0 : layout.xOffset + (count - 1) * layout.xStride + w;
          const vLength = count === 0 ? 0 : layout.vOffset + (count - 1) * layout.vStride + w;
          const xBuffer = solver.alloc(Math.max(xLength, vLength) + 1).fill(SENTINEL);
          const vBuffer = layout.sameBuffer ? xBuffer : solver.alloc(vLength + 1).fill(SENTINEL);
          for (let i = 0; i < count; i++) {
            for (let c = 0; c < w; c++) {
              xBuffer[layout.xOffset + i * layout.xStride + c] = px[i * w + c];
              vBuffer[layout.vOffset + i * layout.vStride + c] = pv[i * w + c];
            }
          }
          const xBefore = xBuffer.slice(),
            vBefore = vBuffer.slice();
          mode.packed(solver, px, pv, pg, pq, DT);
          springStrided(
            solver,
            {
              x: { array: xBuffer, offset: layout.xOffset, stride: layout.xStride },
              v: { array: vBuffer, offset: layout.vOffset, stride: layout.vStride },
              g: mode.g ? { array: pg } : null,
              q: mode.q ? { array: pq } : null,
              width: w,
              count,
            },
            mode.params,
            DT,
          );
          const m = springTransition(...stiffnessAndDamping(mode.mode, mode.p[0], mode.p[1]), DT);
          const touched = new Set<number>();
          for (let i = 0; i < count; i++) {
            for (let c = 0; c < w; c++) {
              const k = i * w + c;
              const xi = layout.xOffset + i * layout.xStride + c,
                vi = layout.vOffset + i * layout.vStride + c;
              touched.add(xi);
              if (layout.sameBuffer) touched.add(vi);
              const g = mode.g ? Math.abs(pg[k]) : 0,
                q = mode.q ? Math.abs(pq[k]) : 0;
              const y = Math.abs(x0[k]) + g,
                vv = Math.abs(v0[k]);
              const tolX = backend === 'simd' ? 8 * U32 * (g + Math.abs(m.xx) * y + Math.abs(m.xv) * vv + Math.abs(m.xq) * q) : 0;
              const tolV = backend === 'simd' ? 8 * U32 * (Math.abs(m.vx) * y + Math.abs(m.vv) * vv + Math.abs(m.vq) * q) : 0;
              const where = `${mode.name}, count ${count}, item ${i}.${c}`;
              expect(Math.abs(xBuffer[xi] - px[k]), `x ${where}`).toBeLessThanOrEqual(tolX);
              expect(Math.abs(vBuffer[vi] - pv[k]), `v ${where}`).toBeLessThanOrEqual(tolV);
            }
          }
          for (let j = 0; j < xBuffer.length; j++)
            if (!touched.has(j)) expect(xBuffer[j], `x buffer float ${j} (${mode.name}, count ${count})`).toBe(xBefore[j]);
          if (!layout.sameBuffer) {
            for (let j = vLength; j < vBuffer.length; j++) expect(vBuffer[j]).toBe(vBefore[j]);
            solver.free(vBuffer);
          }
          for (const a of [px, pv, pg, pq, xBuffer]) solver.free(a);
        }
      }
    });
  }

  it('match the packed methods with strided goals (g and q interleaved, v stride 5)', () => {
    const rng = mulberry32(11);
    for (const count of [3, 4, 9, 130]) {
      const n = count * 3;
      const px = solver.alloc(n),
        pv = solver.alloc(n),
        pg = solver.alloc(n),
        pq = solver.alloc(n);
      for (let i = 0; i < n; i++) {
        px[i] = uniform(rng, -10, 10);
        pv[i] = uniform(rng, -20, 20);
        pg[i] = uniform(rng, -10, 10);
        pq[i] = uniform(rng, -20, 20);
      }
      const x0 = px.slice(),
        v0 = pv.slice();
      const xs = solver.alloc(count * 16).fill(SENTINEL),
        vs = solver.alloc(count * 5).fill(SENTINEL),
        gq = solver.alloc(count * 8).fill(SENTINEL);
      for (let i = 0; i < count; i++) {
        xs.set(px.subarray(i * 3, i * 3 + 3), i * 16 + 12);
        vs.set(pv.subarray(i * 3, i * 3 + 3), i * 5 + 1);
        gq.set(pg.subarray(i * 3, i * 3 + 3), i * 8);
        gq.set(pq.subarray(i * 3, i * 3 + 3), i * 8 + 4);
      }
      solver.springDamper(px, pv, pg, pq, 1.5, 0.3, DT);
      springStrided(
        solver,
        {
          x: { array: xs, offset: 12, stride: 16 },
          v: { array: vs, offset: 1, stride: 5 },
          g: { array: gq, stride: 8 },
          q: { array: gq, offset: 4, stride: 8 },
          width: 3,
          count,
        },
        { frequency: 1.5, halflife: 0.3 },
        DT,
      );
      const m = springTransition(...stiffnessAndDamping(SpringMode.FrequencyHalflife, 1.5, 0.3), DT);
      for (let k = 0; k < n; k++) {
        const i = Math.floor(k / 3),
          c = k % 3;
        const g = Math.abs(pg[k]),
          q = Math.abs(pq[k]),
          y = Math.abs(x0[k]) + g,
          vv = Math.abs(v0[k]);
        const tolX = backend === 'simd' ? 8 * U32 * (g + Math.abs(m.xx) * y + Math.abs(m.xv) * vv + Math.abs(m.xq) * q) : 0;
        const tolV = backend === 'simd' ? 8 * U32 * (Math.abs(m.vx) * y + Math.abs(m.vv) * vv + Math.abs(m.vq) * q) : 0;
        expect(Math.abs(xs[i * 16 + 12 + c] - px[k]), `x count ${count} item ${i}.${c}`).toBeLessThanOrEqual(tolX);
        expect(Math.abs(vs[i * 5 + 1 + c] - pv[k]), `v count ${count} item ${i}.${c}`).toBeLessThanOrEqual(tolV);
      }
      for (let j = 0; j < xs.length; j++) if (j % 16 < 12 || j % 16 === 15) expect(xs[j]).toBe(SENTINEL);
      for (let j = 0; j < vs.length; j++) if (j % 5 === 0 || j % 5 === 4) expect(vs[j]).toBe(SENTINEL);
      for (const a of [px, pv, pg, pq, xs, vs, gq]) solver.free(a);
    }
  });

  it('rejects bad arguments and writes nothing', () => {
    const x = solver.alloc(32).fill(1),
      v = solver.alloc(6),
      g = solver.alloc(6);
    const before = x.slice();
    const call =
      (items: object, params: object = { halflife: 0.1 }, dt = DT) =>
      () =>
        springStrided(
          solver,
          { x: { array: x, offset: 12, stride: 16 }, v: { array: v }, g: { array: g }, width: 3, count: 2, ...items } as never,
          params as never,
          dt,
        );
    expect(call({ count: 3 })).toThrow(/springStrided: items.x needs 47 floats/);
    expect(call({ x: { array: x, stride: 2 } })).toThrow(/springStrided: items.x.stride is 2; it must be a whole number ≥ width \(3\)/);
    expect(call({ width: 0 })).toThrow(RangeError);
    expect(call({ g: { array: x, offset: 13, stride: 16 } })).toThrow(/items.x and items.g share floats/);
    expect(call({ v: { array: x, offset: 0, stride: 16 } })).not.toThrow();
    x.set(before);
    expect(call({}, { halflife: -1 })).toThrow(/springStrided: params.halflife is -1/);
    expect(call({}, { halflife: 0.1 }, NaN)).toThrow(/springStrided: dt is NaN/);
    expect(call({ x: { array: [1, 2, 3] } })).toThrow(TypeError);
    if (backend !== 'js') expect(call({ v: { array: new Float32Array(6) } })).toThrow(/items.v.array is not in this solver's memory/);
    expect(Array.from(x)).toEqual(Array.from(before));
    for (const a of [x, v, g]) solver.free(a);
  });

  it('InstancedSprings springs the translations of a real InstancedMesh, leaving rotation and scale', () => {
    const count = 37;
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
    const rng = mulberry32(7);
    const matrix = new Matrix4();
    for (let i = 0; i < count; i++) {
      const q = new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), 1).normalize();
      matrix.compose(new Vector3(uniform(rng, -5, 5), 0, uniform(rng, -5, 5)), q, new Vector3(1, 2, 0.5));
      mesh.setMatrixAt(i, matrix);
    }
    const original = mesh.instanceMatrix.array.slice() as Float32Array;
    const springs = new InstancedSprings(solver, mesh, { halflife: 0.3 });
    expect(mesh.instanceMatrix.array).toBe(springs.matrices);
    const x = solver.alloc(count * 3),
      v = solver.alloc(count * 3),
      g = solver.alloc(count * 3);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 3; c++) {
        x[i * 3 + c] = original[i * 16 + 12 + c];
        g[i * 3 + c] = springs.goals[i * 3 + c] = uniform(rng, -5, 5);
      }
    }
    const version = mesh.instanceMatrix.version;
    for (let frame = 0; frame < 10; frame++) {
      springs.update(DT);
      solver.simpleSpringDamper(x, v, g, 0.3, DT);
    }
    expect(mesh.instanceMatrix.version).toBeGreaterThan(version);
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < 16; j++) {
        const k = i * 16 + j;
        if (j >= 12 && j < 15)
          expect(Math.abs(springs.matrices[k] - x[i * 3 + j - 12])).toBeLessThanOrEqual(backend === 'simd' ? 1e-5 * 10 : 0);
        else expect(springs.matrices[k]).toBe(original[k]);
      }
    }
    springs.dispose();
    expect(mesh.instanceMatrix.array).not.toBe(springs.matrices);
    for (const a of [x, v, g]) solver.free(a);
  });

  it('InstancedSprings (springInstanceTranslations) matches the packed method at every count, groups of 4 and 8 and the tail', () => {
    const rng = mulberry32(21);
    const halflife = 0.25;
    const m = springTransition(...stiffnessAndDamping(SpringMode.Critical, halflife, 0), DT);
    for (const count of [1, 3, 4, 5, 8, 11, 16, 19, 257]) {
      const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
      for (let i = 0; i < count * 16; i++) mesh.instanceMatrix.array[i] = i % 16 === 15 ? 1 : uniform(rng, -3, 3);
      const original = mesh.instanceMatrix.array.slice() as Float32Array;
      const springs = new InstancedSprings(solver, mesh, { halflife });
      const x = solver.alloc(count * 3),
        v = solver.alloc(count * 3),
        g = solver.alloc(count * 3);
      for (let k = 0; k < count * 3; k++) {
        x[k] = original[Math.floor(k / 3) * 16 + 12 + (k % 3)];
        v[k] = springs.velocities[k] = uniform(rng, -20, 20);
        g[k] = springs.goals[k] = uniform(rng, -10, 10);
      }
      const x0 = x.slice(),
        v0 = v.slice();
      springs.update(DT);
      solver.simpleSpringDamper(x, v, g, halflife, DT);
      for (let k = 0; k < count * 3; k++) {
        const y = Math.abs(x0[k]) + Math.abs(g[k]),
          vv = Math.abs(v0[k]);
        const tolX = backend === 'simd' ? 8 * U32 * (Math.abs(g[k]) + Math.abs(m.xx) * y + Math.abs(m.xv) * vv) : 0;
        const tolV = backend === 'simd' ? 8 * U32 * (Math.abs(m.vx) * y + Math.abs(m.vv) * vv) : 0;
        const where = `count ${count}, item ${Math.floor(k / 3)}.${k % 3}`;
        expect(Math.abs(springs.matrices[Math.floor(k / 3) * 16 + 12 + (k % 3)] - x[k]), `x ${where}`).toBeLessThanOrEqual(tolX);
        expect(Math.abs(springs.velocities[k] - v[k]), `v ${where}`).toBeLessThanOrEqual(tolV);
      }
      for (let j = 0; j < count * 16; j++) if (j % 16 < 12 || j % 16 === 15) expect(springs.matrices[j], `float ${j}`).toBe(original[j]);
      springs.dispose();
      for (const a of [x, v, g]) solver.free(a);
    }
  });

  it('InstancedSprings with rotation and scale springs: the packed quaternion and scale springs, composed T·R·S as Matrix4.compose', () => {
    const rng = mulberry32(5);
    const halflife = 0.2;
    for (const count of [1, 6, 37]) {
      const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
      const matrix = new Matrix4();
      const randomQuaternion = () =>
        new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();
      const randomScale = () => new Vector3(uniform(rng, 0.3, 3), uniform(rng, 0.3, 3), uniform(rng, 0.3, 3));
      for (let i = 0; i < count; i++) {
        matrix.compose(new Vector3(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)), randomQuaternion(), randomScale());
        mesh.setMatrixAt(i, matrix);
      }
      const original = mesh.instanceMatrix.array.slice() as Float32Array;
      const springs = new InstancedSprings(solver, mesh, { halflife, rotation: true, scale: true });
      const { rotations: q, angularVelocities: w, rotationGoals: qg, scales: s, scaleVelocities: sv, scaleGoals: sg } = springs;
      // decomposed at construction: composing them again gives the original matrices
      const t = new Vector3(),
        r = new Quaternion(),
        k = new Vector3();
      for (let i = 0; i < count; i++) {
        matrix.fromArray(original, i * 16).decompose(t, r, k);
        for (let c = 0; c < 4; c++) expect(Math.abs(q[i * 4 + c] - r.toArray()[c])).toBeLessThanOrEqual(U32);
        for (let c = 0; c < 3; c++) expect(Math.abs(s[i * 3 + c] - k.toArray()[c])).toBeLessThanOrEqual(U32 * k.toArray()[c]);
      }
      expect(Array.from(qg)).toEqual(Array.from(q));
      expect(Array.from(sg)).toEqual(Array.from(s));
      for (let i = 0; i < count; i++) {
        randomQuaternion().toArray(qg, i * 4);
        randomScale().toArray(sg, i * 3);
        springs.goals.set([uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)], i * 3);
      }
      // the same springs on packed copies, with the solver's methods of this backend
      const [pq, pw, ps, psv] = [q, w, s, sv].map((a) => solver.alloc(a.length).fill(0));
      pq.set(q);
      ps.set(s);
      for (let frame = 0; frame < 12; frame++) {
        const version = mesh.instanceMatrix.version;
        springs.update(frame === 5 ? 0 : DT);
        expect(mesh.instanceMatrix.version).toBe(version + 1);
        solver.quatSimpleSpringDamper(pq, pw, qg, halflife, frame === 5 ? 0 : DT);
        solver.simpleSpringDamper(ps, psv, sg, halflife, frame === 5 ? 0 : DT);
        // the same kernels on the same floats: identical
        for (const [a, b, name] of [
          [q, pq, 'rotations'],
          [w, pw, 'angular velocities'],
          [s, ps, 'scales'],
          [sv, psv, 'scale velocities'],
        ] as const)
          expect(Array.from(a), `${name}, frame ${frame}`).toEqual(Array.from(b));
        for (let i = 0; i < count; i++) {
          const m = springs.matrices.subarray(i * 16, i * 16 + 16);
          t.fromArray(m, 12);
          r.fromArray(q, i * 4);
          k.fromArray(s, i * 3);
          // float64, from the same floats; each entry of column c is at most 3·|s_c| (unit q), and
          // rounds ≤ 5 times in float32 (products, sums, the scale) on SIMD, once elsewhere
          const expected = matrix.compose(t, r, k).elements;
          for (let j = 0; j < 16; j++) {
            const column = Math.floor(j / 4);
            const tol =
              j >= 12 || j % 4 === 3 ? 0 : backend === 'simd' ? 16 * U32 * Math.abs(k.getComponent(column)) : U32 * Math.abs(expected[j]);
            expect(Math.abs(m[j] - expected[j]), `count ${count}, instance ${i}, float ${j}, frame ${frame}`).toBeLessThanOrEqual(tol);
          }
        }
      }
      springs.dispose();
      for (const a of [pq, pw, ps, psv]) solver.free(a);
    }
  });

  it('InstancedSprings: one step of rotation and scale springs against the float64 reference composed by Matrix4.compose', () => {
    const rng = mulberry32(9);
    const halflife = 0.3,
      count = 29;
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
    const springs = new InstancedSprings(solver, mesh, { halflife, rotation: true, scale: true });
    const { rotations: q, angularVelocities: w, rotationGoals: qg, scales: s, scaleVelocities: sv, scaleGoals: sg } = springs;
    for (let i = 0; i < count; i++) {
      new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize().toArray(q, i * 4);
      new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize().toArray(qg, i * 4);
      for (let c = 0; c < 3; c++) {
        springs.matrices[i * 16 + 12 + c] = uniform(rng, -5, 5);
        springs.goals[i * 3 + c] = uniform(rng, -5, 5);
        springs.velocities[i * 3 + c] = uniform(rng, -5, 5);
        w[i * 3 + c] = uniform(rng, -3, 3);
        s[i * 3 + c] = uniform(rng, 0.3, 3);
        sg[i * 3 + c] = uniform(rng, 0.3, 3);
        sv[i * 3 + c] = uniform(rng, -2, 2);
      }
    }
    // the float64 reference on float64 copies
    const rq = Float64Array.from(q),
      rw = Float64Array.from(w);
    quatSimpleSpringDamper(rq, rw, qg, halflife, DT);
    const c = springTransition(...stiffnessAndDamping(SpringMode.Critical, halflife, 0), DT);
    const step = (x: number, v: number, g: number) => g + c.xx * (x - g) + c.xv * v;
    const expected: number[][] = [];
    const tolerances: number[][] = [];
    for (let i = 0; i < count; i++) {
      const t = [0, 1, 2].map((j) => step(springs.matrices[i * 16 + 12 + j], springs.velocities[i * 3 + j], springs.goals[i * 3 + j]));
      const k = [0, 1, 2].map((j) => step(s[i * 3 + j], sv[i * 3 + j], sg[i * 3 + j]));
      // float32 rounding of a spring step: 8 ulps of its terms (as the packed parity tests)
      const tolOf = (x: number, v: number, g: number) =>
        8 * U32 * (Math.abs(g) + Math.abs(c.xx) * (Math.abs(x) + Math.abs(g)) + Math.abs(c.xv) * Math.abs(v));
      const tolT = [0, 1, 2].map((j) => tolOf(springs.matrices[i * 16 + 12 + j], springs.velocities[i * 3 + j], springs.goals[i * 3 + j]));
      const tolK = [0, 1, 2].map((j) => tolOf(s[i * 3 + j], sv[i * 3 + j], sg[i * 3 + j]));
      const r = new Quaternion().fromArray(rq, i * 4);
      expected.push(new Matrix4().compose(new Vector3(...t), r, new Vector3(...k)).elements.slice());
      // an entry of column j: a rotation error θ moves it by ≤ θ·|s_j| (θ ≤ 2e-5 rad, the quaternion
      // kernels' specification, test/families/quat.test.ts), a scale error by ≤ its own, and the
      // composition rounds as in the test above
      tolerances.push(
        Array.from({ length: 16 }, (_, j) => {
          const col = Math.floor(j / 4);
          if (j % 4 === 3) return 0;
          if (col === 3) return tolT[j - 12]!;
          return 2e-5 * k[col]! + tolK[col]! + 16 * U32 * k[col]!;
        }),
      );
    }
    springs.update(DT);
    for (let i = 0; i < count; i++)
      for (let j = 0; j < 16; j++)
        expect(Math.abs(springs.matrices[i * 16 + j] - expected[i]![j]!), `instance ${i}, float ${j}`).toBeLessThanOrEqual(
          tolerances[i]![j]!,
        );
    springs.dispose();
  });

  it('InstancedSprings: options and update arguments are checked by name, and a rejected update writes nothing', () => {
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 5);
    expect(() => new InstancedSprings(solver, mesh, { rotation: 'yes' } as never)).toThrow(
      /InstancedSprings: options.rotation must be a boolean/,
    );
    expect(() => new InstancedSprings(solver, mesh, { scale: 1 } as never)).toThrow(/InstancedSprings: options.scale must be a boolean/);
    expect(() => new InstancedSprings(solver, {} as never)).toThrow(TypeError);
    const only = new InstancedSprings(solver, mesh, { scale: true });
    expect(only.rotations).not.toBeNull();
    expect(only.rotationGoals).toBeNull();
    expect(only.angularVelocities).toBeNull();
    expect(only.scaleGoals).not.toBeNull();
    only.dispose();
    const springs = new InstancedSprings(solver, mesh, { rotation: true });
    expect(springs.scaleGoals).toBeNull();
    springs.goals.fill(3);
    springs.rotationGoals.set([0, 1, 0, 0]);
    const before = [springs.matrices, springs.velocities, springs.rotations, springs.angularVelocities!].map((a) => a.slice());
    expect(() => {
      springs.halflife = -1;
    }).toThrow(/InstancedSprings.halflife: halflife is -1/);
    springs.halflife = 0.2;
    expect(() => springs.update(Number.NaN)).toThrow(/InstancedSprings.update: dt is NaN/);
    expect(() => springs.update('1' as never)).toThrow(TypeError);
    [springs.matrices, springs.velocities, springs.rotations, springs.angularVelocities!].forEach((a, j) =>
      expect(Array.from(a)).toEqual(Array.from(before[j]!)),
    );
    springs.update(DT);
    expect(springs.matrices[12]).not.toBe(before[0]![12]);
    expect(springs.rotations[1]).not.toBe(before[2]![1]);
    springs.dispose();
    expect(() => springs.update(DT)).toThrow(/InstancedSprings.update: this InstancedSprings has been disposed/);
  });

  it('AttributeSprings springs an interleaved attribute in place', () => {
    const count = 11;
    const data = solver.alloc(count * 8);
    for (let i = 0; i < data.length; i++) data[i] = i;
    const before = data.slice();
    const buffer = new InterleavedBuffer(data, 8);
    const position = new InterleavedBufferAttribute(buffer, 3, 4);
    const springs = new AttributeSprings(solver, position, { halflife: 0.2 });
    for (let i = 0; i < count; i++) springs.goals.set([0, 1, 2], i * 3);
    springs.update(DT);
    const x = solver.alloc(count * 3),
      v = solver.alloc(count * 3),
      g = solver.alloc(count * 3);
    for (let i = 0; i < count; i++) {
      x.set(before.subarray(i * 8 + 4, i * 8 + 7), i * 3);
      g.set([0, 1, 2], i * 3);
    }
    solver.simpleSpringDamper(x, v, g, 0.2, DT);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 8; c++) {
        const k = i * 8 + c;
        if (c >= 4 && c < 7) expect(Math.abs(data[k] - x[i * 3 + c - 4])).toBeLessThanOrEqual(backend === 'simd' ? 8 * U32 * 100 : 0);
        else expect(data[k]).toBe(before[k]);
      }
    }
    expect(buffer.version).toBeGreaterThan(0);
    springs.dispose();
    if (backend !== 'js')
      expect(() => new AttributeSprings(solver, new BufferAttribute(new Float32Array(9), 3))).toThrow(/not in this solver's memory/);
    for (const a of [x, v, g, data]) solver.free(a);
  });
});
