// Skinning matrices of a crowd (issue 19): 1,000 skinned pirouette characters of 25 bones
// (test/fixtures/skinned-crowd.js: three's BVHLoader skeleton, SkeletonUtils.clone, a mixer each at
// its own time), each under its own group in one scene. One element is one character; every call
// computes every bone matrix of the crowd once, from the pose the mixers left (not re-posed).
//   three updateMatrixWorld + skeleton.update   what three's renderer does: scene.updateMatrixWorld()
//                                                then every skeleton.update() (the baseline)
//   SkeletonBatch.update, objects                bones read from their Object3Ds
//   SkeletonBatch.update, group                  bones read from an InertializedMixerGroup's output
//   ForwardKinematics.update                     the same work on arrays already in solver memory
//   plain-JS forward kinematics                  the loop a user would write from three's formulas
//                                                on the same arrays (float64 maths, float32 out)
//   read bones floor                             only reading every bone's position, quaternion and
//                                                scale into an array: what any batch must do first
// The SkeletonBatch and ForwardKinematics rows run on every backend and on 'simd×2', the threads
// suite's solver on 2 threads (issue 20: the kernel split by whole characters).
// Targets (issue 19): SkeletonBatch ≥ 8× three with the objects source, ≥ 20× with the group
// source (checked on one thread and on 2); ForwardKinematics ≥ the plain-JS loop.
import { readFileSync } from 'node:fs';
import { Scene } from 'three';
import { ForwardKinematics } from '../../dist/index.js';
import { InertializedMixerGroup, SkeletonBatch } from '../../dist/three/index.js';
import { buildSkinnedCrowd } from '../../test/fixtures/skinned-crowd.js';
import { threaded } from './threads.js'; // createSolver({ threads: 2 }), shared with the threads suite

const SIZES = [1000];
const THREADED = 'simd×2';
const ALL = ['simd', 'wasm', 'js', THREADED];

/** The solver of a row: the run's solver of its backend, or the threaded one. */
const solverOf = (solver, backend) => (backend === THREADED ? threaded : solver);
const BVH = readFileSync(new URL('../../data/pirouette.bvh', import.meta.url), 'utf8');

/** A posed crowd in a scene. */
function crowd(count) {
  const built = buildSkinnedCrowd(BVH, count, { seed: 19 });
  const scene = new Scene();
  for (const c of built.characters) {
    scene.add(c.group);
    c.mixer.update(1 / 60);
  }
  scene.updateMatrixWorld();
  return { ...built, scene, meshes: built.characters.map((c) => c.mesh) };
}

/** The crowd's skeleton as ForwardKinematics takes it: parents first (BVHLoader lists them so), the inverse binds, every pose. */
function arraysOf(c) {
  const bones = c.meshes[0].skeleton.bones;
  const parents = bones.map((b) => bones.indexOf(b.parent));
  const inverseBindMatrices = c.meshes[0].skeleton.boneInverses.flatMap((m) => m.elements);
  return { parents, inverseBindMatrices, bones: bones.length };
}

/** Fills fk's inputs from the crowd's bones and roots. */
function fill(fk, c) {
  let i = 0;
  c.meshes.forEach((mesh, m) => {
    fk.roots.set(mesh.matrixWorld.elements, 16 * m);
    for (const bone of mesh.skeleton.bones) {
      bone.position.toArray(fk.positions, 3 * i);
      bone.quaternion.toArray(fk.rotations, 4 * i);
      i++;
    }
  });
}

/**
 * The loop a user would write from three's formulas (Matrix4.compose, multiplyMatrices for affine
 * matrices, skeleton.update), over the same arrays: float64 maths, world matrices in a Float64Array.
 */
function plainForwardKinematics({ parents, inverseBindMatrices, bones }, count, positions, rotations, roots, skin) {
  const world = new Float64Array(16 * bones);
  const B = Float64Array.from(inverseBindMatrices);
  return () => {
    for (let c = 0; c < count; c++) {
      for (let k = 0; k < bones; k++) {
        const i = c * bones + k;
        const x = rotations[4 * i],
          y = rotations[4 * i + 1],
          z = rotations[4 * i + 2],
          w = rotations[4 * i + 3];
        const x2 = x + x,
          y2 = y + y,
          z2 = z + z;
        const xx = x * x2,
          xy = x * y2,
          xz = x * z2,
          yy = y * y2,
          yz = y * z2,
          zz = z * z2,
          wx = w * x2,
          wy = w * y2,
          wz = w * z2;
        // local = [R | t], columns l0, l1, l2, t
        const l00 = 1 - (yy + zz),
          l01 = xy + wz,
          l02 = xz - wy,
          l10 = xy - wz,
          l11 = 1 - (xx + zz),
          l12 = yz + wx,
          l20 = xz + wy,
          l21 = yz - wx,
          l22 = 1 - (xx + yy);
        const tx = positions[3 * i],
          ty = positions[3 * i + 1],
          tz = positions[3 * i + 2];
        const p = parents[k];
        const P = p < 0 ? roots : world,
          o = p < 0 ? 16 * c : 16 * p;
        const W = 16 * k;
        for (let r = 0; r < 3; r++) {
          const a0 = P[o + r],
            a1 = P[o + 4 + r],
            a2 = P[o + 8 + r],
            a3 = P[o + 12 + r];
          world[W + r] = a0 * l00 + a1 * l01 + a2 * l02;
          world[W + 4 + r] = a0 * l10 + a1 * l11 + a2 * l12;
          world[W + 8 + r] = a0 * l20 + a1 * l21 + a2 * l22;
          world[W + 12 + r] = a0 * tx + a1 * ty + a2 * tz + a3;
        }
        world[W + 15] = 1;
        const s = 16 * i;
        for (let j = 0; j < 4; j++) {
          const b0 = B[W + 4 * j],
            b1 = B[W + 4 * j + 1],
            b2 = B[W + 4 * j + 2],
            b3 = B[W + 4 * j + 3];
          for (let r = 0; r < 3; r++)
            skin[s + 4 * j + r] = world[W + r] * b0 + world[W + 4 + r] * b1 + world[W + 8 + r] * b2 + world[W + 12 + r] * b3;
          skin[s + 4 * j + 3] = b3;
        }
      }
    }
  };
}

function task(kernel, n, backends, make) {
  return {
    kernel,
    variant: `${n} characters`,
    params: 'none',
    n,
    backends,
    budget: { reps: 1, time: 1500, warmup: 300, minIterations: 20 },
    setup(solver, backend) {
      const c = crowd(n);
      const { call, dispose = () => {} } = make(c, solverOf(solver, backend));
      return { call, reset: () => {}, bounded: () => true, dispose };
    },
  };
}

export default {
  name: 'skeleton',
  sizes: ({ quick }) => (quick ? [] : SIZES),
  tasks(n) {
    return [
      task('three updateMatrixWorld + skeleton.update', n, ['simd'], (c) => ({
        call: () => {
          c.scene.updateMatrixWorld();
          for (const mesh of c.meshes) mesh.skeleton.update();
        },
      })),
      task('SkeletonBatch.update, objects', n, ALL, (c, solver) => {
        const batch = new SkeletonBatch(solver, c.meshes);
        return { call: () => batch.update(), dispose: () => batch.dispose() };
      }),
      task('SkeletonBatch.update, group', n, ALL, (c, solver) => {
        const group = new InertializedMixerGroup(
          solver,
          c.characters.map((ch) => ch.mixer),
          { halflife: 0.1 },
        );
        const batch = new SkeletonBatch(solver, c.meshes, { source: group });
        return {
          call: () => batch.update(),
          dispose: () => {
            batch.dispose();
            group.dispose();
          },
        };
      }),
      task('ForwardKinematics.update', n, ALL, (c, solver) => {
        const a = arraysOf(c);
        const fk = new ForwardKinematics(solver, {
          count: n,
          parents: a.parents,
          inverseBindMatrices: a.inverseBindMatrices,
          worldMatrices: false,
        });
        fill(fk, c);
        return { call: () => fk.update(), dispose: () => fk.dispose() };
      }),
      task('plain-JS forward kinematics', n, ['simd'], (c) => {
        const a = arraysOf(c);
        const positions = new Float32Array(3 * n * a.bones),
          rotations = new Float32Array(4 * n * a.bones),
          roots = new Float64Array(16 * n);
        fill({ positions, rotations, roots }, c);
        return { call: plainForwardKinematics(a, n, positions, rotations, roots, new Float32Array(16 * n * a.bones)) };
      }),
      task('read bones floor', n, ['simd'], (c) => {
        const bones = c.meshes.flatMap((m) => m.skeleton.bones);
        const [p, q, s] = [bones.map((b) => b.position), bones.map((b) => b.quaternion), bones.map((b) => b.scale)];
        const out = new Float64Array(10 * bones.length);
        return {
          call: () => {
            for (let i = 0; i < bones.length; i++) {
              const a = p[i],
                r = q[i],
                c2 = s[i],
                o = 10 * i;
              out[o] = a.x;
              out[o + 1] = a.y;
              out[o + 2] = a.z;
              out[o + 3] = r.x;
              out[o + 4] = r.y;
              out[o + 5] = r.z;
              out[o + 6] = r.w;
              out[o + 7] = c2.x;
              out[o + 8] = c2.y;
              out[o + 9] = c2.z;
            }
          },
        };
      }),
    ];
  },
  targets(t) {
    const lines = [];
    for (const n of SIZES) {
      const row = (kernel, backend = 'simd') => t.find(kernel, 'none', backend, n, `${n} characters`);
      const three = row('three updateMatrixWorld + skeleton.update');
      const plain = row('plain-JS forward kinematics');
      const floor = row('read bones floor');
      if (!three) continue;
      const ms = (r) => (r.nsPerElementP50 * n) / 1e6;
      lines.push(`${n} characters × 25 bones: three ${t.fmt(ms(three))} ms a frame`);
      if (threaded.threads !== 2) lines.push(`the ${THREADED} rows ran on ${threaded.threads} thread: ${threaded.threadsReason}`);
      for (const [kernel, min] of [
        ['SkeletonBatch.update, objects', 8],
        ['SkeletonBatch.update, group', 20],
      ]) {
        for (const backend of ALL) {
          const ours = row(kernel, backend);
          if (!ours) continue;
          const value = three.nsPerElementP50 / ours.nsPerElementP50;
          const threads = backend === THREADED ? ' on 2 threads' : '';
          if (backend === 'simd' || backend === THREADED)
            t.check({
              name: `${n} characters: ${kernel}${threads} ≥ ${min}× three's updateMatrixWorld + skeleton.update (medians)`,
              value,
              min,
              unit: '×',
              noisy: three.noisy || ours.noisy,
            });
          lines.push(`${kernel}, ${backend}: ${t.fmt(ms(ours))} ms (${t.fmt(value)}× three)`);
        }
      }
      const fk = row('ForwardKinematics.update');
      const fk2 = row('ForwardKinematics.update', THREADED);
      if (fk && fk2)
        lines.push(
          `ForwardKinematics.update on 2 threads: ${t.fmt(ms(fk2))} ms (${t.fmt(fk.nsPerElementP50 / fk2.nsPerElementP50)}× one thread)`,
        );
      if (fk && plain) {
        const value = plain.nsPerElementP50 / fk.nsPerElementP50;
        t.check({
          name: `${n} characters: ForwardKinematics.update ≥ 1× the plain-JS loop`,
          value,
          min: 1,
          unit: '×',
          noisy: fk.noisy || plain.noisy,
        });
        lines.push(`ForwardKinematics.update, simd: ${t.fmt(ms(fk))} ms; plain-JS loop ${t.fmt(ms(plain))} ms (${t.fmt(value)}×)`);
      }
      if (floor)
        lines.push(`reading every bone's position, quaternion and scale alone (the floor of the objects source): ${t.fmt(ms(floor))} ms`);
    }
    return { header: 'skeleton: skinning matrices of a crowd, one run', lines };
  },
  settings: { sizes: SIZES, seed: 19 },
};
