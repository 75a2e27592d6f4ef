/**
 * ForwardKinematics against three.js's own Matrix4 on random skeletons (random topology, parents
 * first; random translations, unit rotations, scales and root matrices; odd counts, so that the
 * SIMD pairs and the scalar tail both run). Each character is also built as three Bones under a
 * root Object3D set from the same float32 inputs; `updateMatrixWorld` and
 * `matrixWorld · boneInverse` then give three's float64 results, which the kernel reproduces
 * operation for operation: compared for equality after three's float32 rounding.
 */
import { describe, expect, it } from 'vitest';
import { Bone, Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { ForwardKinematics } from '../../dist/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { integer, mulberry32, uniform, type Rng } from '../helpers/random.js';

const solvers = useSolvers();

/** A random skeleton of `bones` bones: parents first, a few roots. */
function randomParents(rng: Rng, bones: number): number[] {
  return Array.from({ length: bones }, (_, k) => (k === 0 || rng() < 0.1 ? -1 : integer(rng, 0, k - 1)));
}

function randomMatrix(rng: Rng, scale = 1): Matrix4 {
  const q = new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();
  const s = scale === 1 ? new Vector3(1, 1, 1) : new Vector3(uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2));
  return new Matrix4().compose(new Vector3(uniform(rng, -300, 300), uniform(rng, -300, 300), uniform(rng, -300, 300)), q, s);
}

describe.each(BACKENDS)('ForwardKinematics on %s', (backend) => {
  it.each([
    [1, 1],
    [7, 25],
    [12, 40],
  ])("equals three's matrixWorld and matrixWorld · boneInverse: %i characters × %i bones", (count, bones) => {
    const rng = mulberry32(count * 100 + bones);
    const parents = randomParents(rng, bones);
    const inverse = Array.from({ length: bones }, () => randomMatrix(rng, 2).invert());
    const fk = new ForwardKinematics(solvers[backend], {
      count,
      parents,
      inverseBindMatrices: inverse.flatMap((m) => m.elements),
      scales: true,
    });
    try {
      const expected: { world: number[]; skin: number[] }[] = [];
      for (let c = 0; c < count; c++) {
        const root = new Object3D();
        randomMatrix(rng, 2).decompose(root.position, root.quaternion, root.scale);
        root.updateMatrixWorld(true);
        fk.roots.set(root.matrixWorld.elements, 16 * c);
        const objects: Bone[] = [];
        for (let k = 0; k < bones; k++) {
          const i = c * bones + k;
          fk.positions.set([uniform(rng, -50, 50), uniform(rng, -50, 50), uniform(rng, -50, 50)], 3 * i);
          const q = new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();
          fk.rotations.set(q.toArray(), 4 * i);
          fk.scales!.set([uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2)], 3 * i);
          // three's bone from the same float32 values
          const bone = new Bone();
          bone.position.fromArray(fk.positions, 3 * i);
          bone.quaternion.fromArray(fk.rotations, 4 * i);
          bone.scale.fromArray(fk.scales!, 3 * i);
          (parents[k]! < 0 ? root : objects[parents[k]!]!).add(bone);
          objects.push(bone);
        }
        root.updateMatrixWorld(true);
        for (let k = 0; k < bones; k++) {
          const world = objects[k]!.matrixWorld;
          expected.push({
            world: world.elements.map(Math.fround),
            skin: new Matrix4().multiplyMatrices(world, inverse[k]!).elements.map(Math.fround),
          });
        }
      }
      fk.update();
      expected.forEach(({ world, skin }, i) => {
        expect(Array.from(fk.worldMatrices!.subarray(16 * i, 16 * i + 16)), `world matrix ${i}`).toEqual(world);
        expect(Array.from(fk.skinningMatrices!.subarray(16 * i, 16 * i + 16)), `skinning matrix ${i}`).toEqual(skin);
      });
    } finally {
      fk.dispose();
    }
  });

  it('unit scales without a scales array; skinning matrices only', () => {
    const fk = new ForwardKinematics(solvers[backend], {
      count: 3,
      parents: [-1, 0],
      inverseBindMatrices: new Matrix4().makeTranslation(0, -1, 0).toArray().concat(new Matrix4().toArray()),
      worldMatrices: false,
    });
    try {
      expect(fk.scales).toBeNull();
      expect(fk.worldMatrices).toBeNull();
      fk.positions.set([0, 1, 0, 2, 0, 0], 0); // character 0: root at y = 1, child 2 along x
      fk.update();
      const t = (m: number) => Array.from(fk.skinningMatrices!.subarray(16 * m + 12, 16 * m + 15));
      expect(t(0)).toEqual([0, 0, 0]); // root: translation 1 · inverse bind −1
      expect(t(1)).toEqual([2, 1, 0]);
    } finally {
      fk.dispose();
    }
  });

  it('rejects bad input with a clear error and writes nothing', () => {
    const s = solvers[backend];
    expect(() => new ForwardKinematics(s, { count: 1, parents: [-1, 1] })).toThrow(
      /options.parents\[1\] is 1; it must be −1 or the index of an earlier bone/,
    );
    expect(() => new ForwardKinematics(s, { count: 1, parents: [] })).toThrow(/options.parents is empty/);
    expect(() => new ForwardKinematics(s, { count: 0, parents: [-1] })).toThrow(/options.count/);
    expect(() => new ForwardKinematics(s, { count: 1, parents: [-1], inverseBindMatrices: [1, 2, 3] })).toThrow(
      /has length 3; it must be 16 × bones = 16/,
    );
    const projective = new Matrix4().makePerspective(-1, 1, 1, -1, 1, 10).toArray();
    expect(
      () => new ForwardKinematics(s, { count: 1, parents: [-1], inverseBindMatrices: [...projective.slice(0, 15), Number.NaN] }),
    ).toThrow(/inverseBindMatrices\[15\] \(bone 0\) is NaN/);
    expect(() => new ForwardKinematics(s, { count: 1, parents: [-1], worldMatrices: false })).toThrow(/nothing would be computed/);
    const fk = new ForwardKinematics(s, { count: 5, parents: [-1, 0, 1] });
    try {
      fk.update();
      const before = Float32Array.from(fk.worldMatrices!);
      fk.rotations[4 * (3 * 3 + 2) + 1] = Number.NaN; // character 3, bone 2
      expect(() => fk.update()).toThrow(/ForwardKinematics.update: rotations\[45\] \(character 3, bone 2\) is NaN; it must be finite/);
      fk.rotations[4 * (3 * 3 + 2) + 1] = 0;
      fk.roots[16 * 4 + 3] = 0.5; // character 4's root: not affine
      expect(() => fk.update()).toThrow(/roots matrix 4 has last row 0.5 0 0 1; it must be affine/);
      expect(fk.worldMatrices).toEqual(before);
    } finally {
      fk.dispose();
    }
    expect(() => fk.update()).toThrow(/this ForwardKinematics has been disposed/);
  });
});
