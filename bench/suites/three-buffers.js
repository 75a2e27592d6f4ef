// Zero-copy three.js buffers (spring-solver/three): 5,000 InstancedMesh instances
// springing their translations toward goals (critical spring, halflife 0.25 s).
//   packed      simpleSpringDamper on packed x, v, g arrays (3 floats an instance): the kernel alone
//   update      InstancedSprings.update: the instance-matrix kernel writing the translations in place
//   update T·R·S  the same with rotation and scale springs (quaternion and scale springs, then the
//               matrices recomposed): information only, no target
//   plain JS    what one writes without the library: a float64 exact critical spring per float on
//               packed Float32Arrays, then the translations written into instanceMatrix.array
// ns/elem here is per instance (3 floats). Targets: update ≤ 1.5× packed (SIMD), and SIMD update
// ≥ 5× the plain-JS loop, on the medians of the samples: a sample is only ~50 µs here, so one
// preemption by another process multiplies it, and on a shared machine the means of these rows
// run 3–4× their medians (the ratios of the means are printed too).
import { BoxGeometry, InstancedMesh, Matrix4, MeshBasicMaterial } from 'three';
import { InstancedSprings } from '../../dist/three/index.js';
import { DT, fillSpec, range } from './shared.js';

const N = 5000;
const HALFLIFE = 0.25;
const X = range(-10, 10, 3, 'x');
const G = range(-10, 10, 3, 'g');

function makeMesh(n) {
  const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), n);
  const m = new Matrix4();
  const x = fillSpec(new Float32Array(n * 3), X, 'x', n);
  for (let i = 0; i < n; i++) mesh.setMatrixAt(i, m.makeTranslation(x[i * 3], x[i * 3 + 1], x[i * 3 + 2]));
  return { mesh, x };
}

const bounded = (a) => () => a.every((value) => Math.abs(value) <= 100);

function packedTask(n) {
  return {
    kernel: 'simpleSpringDamper',
    variant: 'packed ×3',
    params: 'uniform',
    n,
    setup(solver) {
      const x = solver.alloc(n * 3),
        v = solver.alloc(n * 3),
        g = solver.alloc(n * 3);
      fillSpec(g, G, 'g', n);
      const reset = () => {
        fillSpec(x, X, 'x', n);
        v.fill(0);
      };
      reset();
      return {
        call: () => solver.simpleSpringDamper(x, v, g, HALFLIFE, DT),
        reset,
        bounded: bounded(x),
        dispose: () => [x, v, g].forEach((a) => solver.free(a)),
      };
    },
  };
}

/** InstancedSprings.update; with `composed`, rotation and scale springs too (matrices recomposed T·R·S). */
function updateTask(n, composed = false) {
  return {
    kernel: composed ? 'InstancedSprings.update T·R·S' : 'InstancedSprings.update',
    params: 'uniform',
    n,
    setup(solver) {
      const { mesh, x } = makeMesh(n);
      const springs = new InstancedSprings(solver, mesh, { halflife: HALFLIFE, rotation: composed, scale: composed });
      fillSpec(springs.goals, G, 'g', n);
      const full = /** @type {import('../../dist/three/index.js').InstancedSprings<true, true>} */ (springs);
      if (composed) {
        // goals: a quarter turn about a per-instance axis, scales in [0.5, 2]
        const axes = fillSpec(new Float32Array(n * 3), G, 'g', n);
        for (let i = 0; i < n; i++) {
          const [a, b, c] = axes.subarray(i * 3, i * 3 + 3);
          const k = Math.SQRT1_2 / (Math.hypot(a, b, c) || 1);
          full.rotationGoals.set([a * k, b * k, c * k, Math.SQRT1_2], i * 4);
          full.scaleGoals.set([0.5 + Math.abs(a) / 10, 0.5 + Math.abs(b) / 10, 0.5 + Math.abs(c) / 10], i * 3);
        }
      }
      const reset = () => {
        for (let i = 0; i < n; i++) springs.matrices.set(x.subarray(i * 3, i * 3 + 3), i * 16 + 12);
        springs.velocities.fill(0);
        if (composed) {
          for (let i = 0; i < n; i++) full.rotations.set([0, 0, 0, 1], i * 4);
          full.angularVelocities.fill(0);
          full.scales.fill(1);
          full.scaleVelocities.fill(0);
        }
      };
      return {
        call: () => springs.update(DT),
        reset,
        bounded: bounded(springs.matrices),
        dispose: () => springs.dispose(),
      };
    },
  };
}

/** The loop a user writes without the library (exact critical spring, coefficients once a frame). */
function plainTask(n) {
  return {
    kernel: 'plain JS spring + matrices',
    params: 'uniform',
    n,
    backends: ['js'],
    setup() {
      const { mesh } = makeMesh(n);
      const x = new Float32Array(n * 3),
        v = new Float32Array(n * 3);
      const g = fillSpec(new Float32Array(n * 3), G, 'g', n);
      const matrices = mesh.instanceMatrix.array;
      const reset = () => {
        fillSpec(x, X, 'x', n);
        v.fill(0);
      };
      reset();
      const call = () => {
        // Spring-It-On critical spring: y = 2 ln2 / h, x = g + (j0 + j1 dt) e^{−y dt}, v = (v − j1 y dt) e^{−y dt}
        const y = (2 * Math.LN2) / HALFLIFE;
        const e = Math.exp(-y * DT);
        for (let k = 0; k < n * 3; k++) {
          const j0 = x[k] - g[k];
          const j1 = v[k] + j0 * y;
          x[k] = g[k] + (j0 + j1 * DT) * e;
          v[k] = (v[k] - j1 * y * DT) * e;
        }
        for (let i = 0; i < n; i++) {
          matrices[i * 16 + 12] = x[i * 3];
          matrices[i * 16 + 13] = x[i * 3 + 1];
          matrices[i * 16 + 14] = x[i * 3 + 2];
        }
        mesh.instanceMatrix.needsUpdate = true;
      };
      return { call, reset, bounded: bounded(x), dispose: () => {} };
    },
  };
}

export default {
  name: 'three-buffers',
  sizes: ({ quick }) => (quick ? [] : [N]),
  tasks: (n) => [packedTask(n), updateTask(n), updateTask(n, true), plainTask(n)],
  targets(t) {
    const packed = t.find('simpleSpringDamper', 'uniform', 'simd', N, 'packed ×3');
    const update = t.find('InstancedSprings.update', 'uniform', 'simd', N);
    const plain = t.find('plain JS spring + matrices', 'uniform', 'js', N);
    const noisy = [packed, update, plain].some((r) => r?.noisy);
    const ratio = (a, b, key) => (a && b ? a[key] / b[key] : null);
    t.check({
      name: `InstancedSprings.update ≤ 1.5× the packed kernel (SIMD, ${N} instances, medians)`,
      value: ratio(update, packed, 'nsPerElementP50'),
      max: 1.5,
      unit: '×packed',
      noisy,
    });
    t.check({
      name: `InstancedSprings.update (SIMD) ≥ 5× a plain-JS spring + matrix loop (${N} instances, medians)`,
      value: ratio(plain, update, 'nsPerElementP50'),
      min: 5,
      unit: '×',
      noisy,
    });
    const us = (r) => (r ? `${t.fmt((r.nsPerElementP50 * N) / 1000)} µs median (${t.fmt((r.nsPerElement * N) / 1000)} mean)` : '–');
    const lines = ['simd', 'wasm', 'js'].map((b) => {
      const p = t.find('simpleSpringDamper', 'uniform', b, N, 'packed ×3');
      const u = t.find('InstancedSprings.update', 'uniform', b, N);
      const c = t.find('InstancedSprings.update T·R·S', 'uniform', b, N);
      return `${b}: packed kernel ${us(p)}, InstancedSprings.update ${us(u)}, with rotation and scale springs ${us(c)} a frame`;
    });
    lines.push(`plain JS spring + matrix writes: ${us(plain)} a frame`);
    lines.push(
      `ratios of the means: update/packed ${t.fmt(ratio(update, packed, 'nsPerElement'))}×, plain/update ${t.fmt(ratio(plain, update, 'nsPerElement'))}×`,
    );
    return { header: `three: ${N} instances, whole frame`, lines };
  },
  settings: { instances: N, halflife: HALFLIFE },
};
