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
import { springTransition, stiffnessAndDamping } from '../../dist/reference/index.js';
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
