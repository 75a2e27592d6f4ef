/**
 * spring-solver/three refuses what it used to accept silently (issue 27, "Nothing silent in the
 * adapters"), on real three.js: objects of another solver, an object attached twice, bad options
 * found only at the first update, messages that name the wrong class or three's private fields, and
 * a clone of an attached character left frozen. Every refusal is a TypeError or RangeError naming
 * the class the user called and the argument, and leaves everything as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnimationMixer,
  BoxGeometry,
  BufferAttribute,
  Group,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  MeshBasicMaterial,
  Scene,
  type SkinnedMesh,
} from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { createSolver, type Solver } from '../../dist/index.js';
import { AttributeSprings, InertializedMixer, InertializedMixerGroup, InstancedSprings, SkeletonBatch } from '../../dist/three/index.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import { construct, expectRefused } from '../helpers/refused.js';
import bvhText from '../../data/pirouette.bvh?raw';

let solver: Solver;
let other: Solver;
beforeAll(async () => {
  solver = await createSolver({ backend: 'simd' });
  other = await createSolver({ backend: 'js' });
});
afterAll(() => {
  solver.dispose();
  other.dispose();
});

const crowd = (count: number, seed = 7) => buildSkinnedCrowd(bvhText, count, { seed });
const meshesOf = (c: ReturnType<typeof crowd>): SkinnedMesh[] => c.characters.map((ch) => ch.mesh);
const mixersOf = (c: ReturnType<typeof crowd>): AnimationMixer[] => c.characters.map((ch) => ch.mixer);

/** What a SkeletonBatch changes on a mesh when it attaches: checked unchanged after a refusal. */
function attachState(meshes: readonly SkinnedMesh[]) {
  return meshes.map((mesh) => ({
    boneMatrices: mesh.skeleton.boneMatrices,
    update: Object.hasOwn(mesh.skeleton, 'update'),
    bones: mesh.skeleton.bones.map((b) => [b.matrixAutoUpdate, b.matrixWorldAutoUpdate, Object.keys(b).length]),
  }));
}

describe('objects of another solver are refused', () => {
  it('SkeletonBatch with a source group on another solver: a RangeError, nothing attached', () => {
    const c = crowd(3);
    const group = new InertializedMixerGroup(other, mixersOf(c), { halflife: 0.1 });
    const before = attachState(meshesOf(c));
    try {
      expectRefused(() => new SkeletonBatch(solver, meshesOf(c), { source: group }), 'SkeletonBatch', /options\.source .*another solver/);
      expect(attachState(meshesOf(c))).toEqual(before);
      expect(group.objectWrites).toBe(true);
      // on the group's own solver it is accepted, and its matrices are finite
      const batch = new SkeletonBatch(other, meshesOf(c), { source: group });
      group.update(1 / 60);
      batch.update();
      for (const mesh of meshesOf(c)) expect(mesh.skeleton.boneMatrices!.every(Number.isFinite)).toBe(true);
      batch.dispose();
    } finally {
      group.dispose();
    }
  });

  it('InstancedSprings on a mesh another solver springs: refused', () => {
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 4);
    const first = new InstancedSprings(other, mesh);
    const attribute = mesh.instanceMatrix;
    expectRefused(() => new InstancedSprings(solver, mesh), 'InstancedSprings', /mesh is already attached to an InstancedSprings/);
    expect(mesh.instanceMatrix).toBe(attribute);
    first.dispose();
    new InstancedSprings(solver, mesh).dispose();
  });
});

describe('an object attached twice is refused', () => {
  it('two InertializedMixerGroups, or an InertializedMixer and a group, on one mixer', () => {
    const c = crowd(2);
    const [a, b] = mixersOf(c) as [AnimationMixer, AnimationMixer];
    const first = new InertializedMixerGroup(solver, [a, b], { halflife: 0.1 });
    expectRefused(
      () => new InertializedMixerGroup(solver, [b], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /mixers\[0\] is already attached to an InertializedMixerGroup; dispose it first/,
    );
    expectRefused(
      () => new InertializedMixer(other, a, { halflife: 0.1 }),
      'InertializedMixer',
      /mixer is already attached to an InertializedMixerGroup/,
    );
    first.dispose();
    const single = new InertializedMixer(solver, a, { halflife: 0.1 });
    expectRefused(
      () => new InertializedMixerGroup(solver, [b, a], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /mixers\[1\] is already attached to an InertializedMixer;/,
    );
    expectRefused(
      () => new InertializedMixerGroup(solver, [b, b], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /mixers\[1\] is also mixers\[0\]/,
    );
    // the refused groups took nothing over: one update of the single advances its mixer once
    const time = c.characters[0]!.action.time;
    single.update(0.5);
    expect(c.characters[0]!.action.time).toBeCloseTo((time + 0.5) % c.clip.duration, 6);
    single.dispose();
    new InertializedMixerGroup(solver, [a, b], { halflife: 0.1 }).dispose(); // free again
  });

  it('a group read by two SkeletonBatches, two meshes on one skeleton, a bone in two batches', () => {
    const c = crowd(4);
    const meshes = meshesOf(c);
    const group = new InertializedMixerGroup(solver, mixersOf(c).slice(0, 2), { halflife: 0.1 });
    const reading = new SkeletonBatch(solver, meshes.slice(0, 2), { source: group });
    try {
      const before = attachState(meshes.slice(2));
      expectRefused(
        () => new SkeletonBatch(solver, meshes.slice(2), { source: group }),
        'SkeletonBatch',
        /options\.source is already read by a SkeletonBatch; dispose it first/,
      );
      // a second mesh bound to meshes[2]'s skeleton (three's meshes sharing one skeleton)
      const twin = meshes[2]!.clone();
      twin.bind(meshes[2]!.skeleton, meshes[2]!.bindMatrix);
      expectRefused(
        () => new SkeletonBatch(solver, [meshes[2]!, twin]),
        'SkeletonBatch',
        /meshes\[1\]'s skeleton is also meshes\[0\]'s; give one mesh per skeleton/,
      );
      // a second skeleton over meshes[0]'s bones (attached to the batch above)
      const shared = meshes[3]!.clone();
      shared.bind(meshes[0]!.skeleton.clone(), meshes[0]!.bindMatrix);
      expectRefused(
        () => new SkeletonBatch(other, [meshes[3]!, shared]),
        'SkeletonBatch',
        /meshes\[1\]'s bone .* is already attached to a SkeletonBatch/,
      );
      expect(attachState(meshes.slice(2))).toEqual(before);
    } finally {
      reading.dispose();
      group.dispose();
    }
  });

  it('AttributeSprings twice on one attribute', () => {
    const attribute = new BufferAttribute(solver.alloc(12), 3);
    const first = new AttributeSprings(solver, attribute);
    expectRefused(() => new AttributeSprings(solver, attribute), 'AttributeSprings', /attribute is already sprung by an AttributeSprings/);
    first.dispose();
    new AttributeSprings(solver, attribute).dispose();
    // an array outside the solver's memory: named as the attribute's, not as an internal helper's argument
    expectRefused(
      () => new AttributeSprings(solver, new BufferAttribute(new Float32Array(9), 3)),
      'AttributeSprings',
      /attribute's array is not in this solver's memory/,
    );
    solver.free(attribute.array as Float32Array);
  });
});

describe('invalid options throw at construction', () => {
  const mesh = () => new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 3);
  it.each([
    [Number.NaN, RangeError],
    [-1, RangeError],
    ['0.3', TypeError],
    [Number.POSITIVE_INFINITY, RangeError],
  ])('InstancedSprings and AttributeSprings with halflife %s', (halflife, type) => {
    const m = mesh();
    const attribute = m.instanceMatrix;
    expect(() => new InstancedSprings(solver, m, { halflife: halflife as number })).toThrow(type);
    expectRefused(() => new InstancedSprings(solver, m, { halflife: halflife as number }), 'InstancedSprings', /options\.halflife/);
    expect(m.instanceMatrix).toBe(attribute); // not taken over
    const data = new BufferAttribute(solver.alloc(6), 3);
    expectRefused(() => new AttributeSprings(solver, data, { halflife: halflife as number }), 'AttributeSprings', /options\.halflife/);
    solver.free(data.array as Float32Array);
  });

  it('an option that does not exist, a halflife set to a bad value, a solver that is not one', () => {
    const m = mesh();
    expectRefused(
      () => new InstancedSprings(solver, m, { halfLife: 0.3 } as never),
      'InstancedSprings',
      /options\.halfLife is not an option/,
    );
    expectRefused(() => new InstancedSprings({} as never, m), 'InstancedSprings', /solver must be a Solver/);
    const springs = new InstancedSprings(solver, m, { halflife: 0.3 });
    const before = springs.matrices.slice();
    expectRefused(
      () => {
        springs.halflife = Number.NaN;
      },
      'InstancedSprings',
      /halflife is NaN/,
    );
    expect(springs.halflife).toBe(0.3);
    springs.update(1 / 60);
    expect(springs.matrices).toEqual(before); // at rest on its goals
    springs.dispose();
    const data = new BufferAttribute(solver.alloc(6), 3);
    expectRefused(
      () => new AttributeSprings(solver, data, { halflife: 0.2, rotation: true } as never),
      'AttributeSprings',
      /options\.rotation is not an option/,
    );
    const sprung = new AttributeSprings(solver, data);
    expectRefused(
      () => {
        sprung.halflife = -1;
      },
      'AttributeSprings',
      /halflife is -1/,
    );
    sprung.dispose();
    solver.free(data.array as Float32Array);
    const c = crowd(1);
    expectRefused(
      () => new InertializedMixer(solver, c.characters[0]!.mixer, { halflife: 0.1, halfLife: 2 } as never),
      'InertializedMixer',
      /options\.halfLife is not an option/,
    );
    expectRefused(
      () => new SkeletonBatch(solver, meshesOf(c), { boneWorld: true } as never),
      'SkeletonBatch',
      /options\.boneWorld is not an option/,
    );
  });
});

describe('messages name what the user called and gave', () => {
  it("InertializedMixer's errors name InertializedMixer and its mixer", () => {
    const c = crowd(1);
    const mixer = c.characters[0]!.mixer;
    expectRefused(
      () => new InertializedMixer(solver, mixer, { halflife: Number.NaN }),
      'InertializedMixer',
      /^InertializedMixer: options\.halflife is NaN/,
    );
    expectRefused(
      () => new InertializedMixer(solver, mixer, { halflife: 0.1, root: 'nope' }),
      'InertializedMixer',
      /^InertializedMixer: options\.root is "nope", but mixer animates no object of that name/,
    );
    const im = new InertializedMixer(solver, mixer, { halflife: 0.1 });
    expectRefused(() => im.update(-1), 'InertializedMixer', /^InertializedMixer\.update: dt is -1/);
    im.dispose();
    expectRefused(() => im.update(0.1), 'InertializedMixer', /^InertializedMixer\.update: this InertializedMixer has been disposed/);
    expectRefused(() => im.transition(), 'InertializedMixer', /^InertializedMixer\.transition: this InertializedMixer has been disposed/);
  });

  it('a mesh given for a mixer: no three.js private names', () => {
    const c = crowd(2);
    const mesh = c.characters[0]!.mesh;
    for (const call of [
      () => new InertializedMixer(solver, mesh as never, { halflife: 0.1 }),
      () => new InertializedMixerGroup(solver, [c.characters[1]!.mixer, mesh as never], { halflife: 0.1 }),
    ]) {
      let message = '';
      try {
        call();
      } catch (e) {
        expect(e).toBeInstanceOf(TypeError);
        message = (e as Error).message;
      }
      expect(message).toMatch(/(mixer|mixers\[1\]) must be an AnimationMixer, got SkinnedMesh/);
      expect(message).not.toMatch(/_bindings|_nActiveBindings|_accuIndex/);
    }
    // the refused group left mixer 1 alone: a group can take it
    new InertializedMixerGroup(solver, [c.characters[1]!.mixer], { halflife: 0.1 }).dispose();
  });

  it('a group, a batch and springs used after solver.dispose() name themselves', async () => {
    const own = await createSolver({ backend: 'js' });
    const c = crowd(2);
    const group = new InertializedMixerGroup(own, mixersOf(c), { halflife: 0.1 });
    const batch = new SkeletonBatch(own, meshesOf(c), { source: group });
    const springs = new InstancedSprings(own, new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 2));
    const attribute = new AttributeSprings(own, new BufferAttribute(own.alloc(6), 3));
    own.dispose();
    expectRefused(() => group.update(1 / 60), 'InertializedMixerGroup', /^InertializedMixerGroup\.update: this solver has been disposed/);
    expectRefused(() => group.transition(), 'InertializedMixerGroup', /^InertializedMixerGroup\.transition: this solver has been disposed/);
    expectRefused(() => batch.update(), 'SkeletonBatch', /^SkeletonBatch\.update: this solver has been disposed/);
    expectRefused(() => springs.update(1 / 60), 'InstancedSprings', /^InstancedSprings\.update: this solver has been disposed/);
    expectRefused(() => attribute.update(1 / 60), 'AttributeSprings', /^AttributeSprings\.update: this solver has been disposed/);
    for (const o of [batch, group, springs, attribute]) o.dispose();
  });

  it('mixers in another order than their meshes: says so, and not that the clips differ', () => {
    const c = crowd(3);
    const mixers = mixersOf(c);
    const group = new InertializedMixerGroup(solver, [mixers[1]!, mixers[0]!, mixers[2]!], { halflife: 0.1 });
    try {
      expectRefused(
        () => new SkeletonBatch(solver, meshesOf(c), { source: group }),
        'SkeletonBatch',
        /options\.source's mixers\[0\] animates meshes\[1\]'s bones, not meshes\[0\]'s; mixer m must animate mesh m/,
      );
      expect(group.objectWrites).toBe(true);
    } finally {
      group.dispose();
    }
  });

  it('unnamed objects are described by their path, never as ""', () => {
    const c = crowd(4);
    const meshes = meshesOf(c);
    for (const mesh of meshes) {
      mesh.name = '';
      const hip = mesh.skeleton.bones[0]!;
      const own = new Group();
      own.name = 'Armature';
      mesh.add(own);
      own.add(hip);
      for (const bone of mesh.skeleton.bones) bone.name = '';
    }
    const batch = new SkeletonBatch(solver, meshes);
    try {
      batch.update();
      meshes[3]!.skeleton.bones[7]!.position.y = Number.NaN;
      let message = '';
      try {
        batch.update();
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
        message = (e as Error).message;
      }
      expect(message).toMatch(/^SkeletonBatch\.update: meshes\[3\] > "Armature" > bone 7 has position NaN/);
      expect(message).not.toContain('""');
      meshes[3]!.skeleton.bones[7]!.position.y = 0;
      // an unnamed group above a mesh
      const holder = c.characters[2]!.group;
      holder.name = '';
      holder.position.z = Number.POSITIVE_INFINITY;
      message = '';
      try {
        batch.update();
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/meshes\[2\]'s bones hang below meshes\[2\]\.parent, whose position has Infinity/);
    } finally {
      batch.dispose();
    }
  });
});

describe('a clone of an attached character', () => {
  it('SkeletonUtils.clone of a mesh in a SkeletonBatch is a plain three character', () => {
    const c = crowd(2);
    const batch = new SkeletonBatch(solver, meshesOf(c));
    try {
      for (const { mixer } of c.characters) mixer.update(1 / 60);
      batch.update();
      const scene = new Scene();
      // the clone, and a twin cloned from the template that was never attached, posed alike
      const copies = [cloneSkinned(c.characters[0]!.mesh), cloneSkinned(c.template)] as SkinnedMesh[];
      const mixers = copies.map((mesh) => {
        const holder = new Group();
        holder.position.set(40, 0, -25);
        holder.add(mesh);
        scene.add(holder);
        const mixer = new AnimationMixer(mesh);
        mixer.clipAction(c.clip).play();
        return mixer;
      });
      for (let f = 0; f < 5; f++) {
        for (const mixer of mixers) mixer.update(0.1);
        scene.updateMatrixWorld();
        for (const mesh of copies) mesh.skeleton.update();
        expect(Array.from(copies[0]!.skeleton.boneMatrices!), `frame ${f}`).toEqual(Array.from(copies[1]!.skeleton.boneMatrices!));
      }
      // the attached character still gets the batch's matrices, bit-identical to three's
      const before = Float32Array.from(c.characters[0]!.mesh.skeleton.boneMatrices!);
      c.characters[0]!.mixer.update(0.2);
      batch.update();
      expect(c.characters[0]!.mesh.skeleton.boneMatrices).not.toEqual(before);
    } finally {
      batch.dispose();
    }
  });
});

describe('the gaps closed after the first pass (issue 27)', () => {
  /** Every bone's position, quaternion and scale: checked unchanged after a refusal. */
  const pose = (meshes: readonly SkinnedMesh[]) =>
    meshes.map((mesh) => mesh.skeleton.bones.map((b) => [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray()]));

  it('one bone animated through two InertializedMixers, or by two mixers of one group: refused, nothing taken over', () => {
    const c = crowd(2);
    const [a, b] = mixersOf(c) as [AnimationMixer, AnimationMixer];
    // a second mixer on character 0's mesh: it animates the very bones mixer a animates
    const twin = new AnimationMixer(c.characters[0]!.mesh);
    twin.clipAction(c.clip).play();
    const first = new InertializedMixer(solver, a, { halflife: 0.1 });
    const before = pose(meshesOf(c));
    expectRefused(
      () => new InertializedMixer(other, twin, { halflife: 0.1 }),
      'InertializedMixer',
      /^InertializedMixer: mixer's animated object "\w+" is already animated through an InertializedMixer; dispose it first/,
    );
    expectRefused(
      () => new InertializedMixerGroup(solver, [b, twin], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /^InertializedMixerGroup: mixers\[1\]'s animated object "\w+" is already animated through an InertializedMixer;/,
    );
    first.dispose();
    expectRefused(
      () => new InertializedMixerGroup(solver, [a, b, twin], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /^InertializedMixerGroup: mixers\[2\]'s animated object "\w+" is also animated by mixers\[0\]; each object can be animated by one mixer of a group/,
    );
    expect(pose(meshesOf(c))).toEqual(before);
    // nothing was taken over: the twin's own update still writes its bones, and a group can take every mixer
    const group = new InertializedMixerGroup(solver, [b, twin], { halflife: 0.1 });
    group.update(0.25);
    expect(pose(meshesOf(c))).not.toEqual(before);
    group.dispose();
    new InertializedMixerGroup(solver, [a, b], { halflife: 0.1 }).dispose();
  });

  it('a float sprung by two springs objects: two attributes over one array, an attribute over instance matrices', () => {
    const array = solver.alloc(24);
    const values = () => Array.from(array);
    const first = new AttributeSprings(solver, new BufferAttribute(array, 3));
    const before = values();
    expectRefused(
      () => new AttributeSprings(solver, new BufferAttribute(array.subarray(6), 3)),
      'AttributeSprings',
      /^AttributeSprings: the attribute's items share floats with the items an AttributeSprings springs; a float can be sprung by one object at a time/,
    );
    first.dispose();
    // an interleaved buffer of stride 6: position at 0 and normal at 3 are apart; an attribute at offset 2 meets both
    const data = new InterleavedBuffer(array, 6);
    const position = new AttributeSprings(solver, new InterleavedBufferAttribute(data, 3, 0));
    const normal = new AttributeSprings(solver, new InterleavedBufferAttribute(data, 3, 3));
    expectRefused(
      () => new AttributeSprings(solver, new InterleavedBufferAttribute(data, 3, 2)),
      'AttributeSprings',
      /the attribute's items share floats with the items an AttributeSprings springs/,
    );
    position.update(1 / 60);
    normal.update(1 / 60);
    expect(values()).toEqual(before); // at rest on their goals: the refused springs wrote nothing
    position.dispose();
    normal.dispose();
    solver.free(array);
    // the instance matrices of an InstancedSprings, sprung again by an AttributeSprings
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 3);
    const springs = new InstancedSprings(solver, mesh);
    expectRefused(
      () => new AttributeSprings(solver, mesh.instanceMatrix),
      'AttributeSprings',
      /the attribute's items share floats with the instance matrices of an InstancedSprings/,
    );
    springs.dispose();
  });

  it('extra arguments are refused: a dt given to SkeletonBatch.update, a mixer to InertializedMixer.transition, a fourth argument', () => {
    const c = crowd(2);
    const meshes = meshesOf(c);
    const before = attachState(meshes);
    expectRefused(
      () => construct(SkeletonBatch, solver, meshes, {}, 'extra'),
      'SkeletonBatch',
      /^SkeletonBatch: takes 3 arguments \(solver, meshes, options\), got 4 arguments/,
    );
    expect(attachState(meshes)).toEqual(before);
    const batch = new SkeletonBatch(solver, meshes);
    const im = new InertializedMixer(solver, c.characters[0]!.mixer, { halflife: 0.1 });
    try {
      batch.update();
      const matrices = Float32Array.from(meshes[0]!.skeleton.boneMatrices!);
      c.characters[0]!.mixer.update(0.3);
      expectRefused(
        () => (batch.update as (dt: number) => void)(1 / 60),
        'SkeletonBatch',
        /^SkeletonBatch\.update: takes no arguments, got 1/,
      );
      expect(meshes[0]!.skeleton.boneMatrices).toEqual(matrices);
      expectRefused(() => (batch.refresh as (x: number) => void)(1), 'SkeletonBatch', /^SkeletonBatch\.refresh: takes no arguments, got 1/);
      const time = c.characters[0]!.action.time;
      expectRefused(
        () => (im.transition as (m: AnimationMixer) => void)(c.characters[0]!.mixer),
        'InertializedMixer',
        /^InertializedMixer\.transition: takes no arguments, got 1/,
      );
      expectRefused(
        () => (im.update as (dt: number, x: number) => void)(1 / 60, 1),
        'InertializedMixer',
        /^InertializedMixer\.update: takes one argument \(dt\), got 2/,
      );
      expect(c.characters[0]!.action.time).toBe(time);
      expectRefused(
        () => construct(InertializedMixerGroup, solver, [c.characters[1]!.mixer], { halflife: 0.1 }, 0),
        'InertializedMixerGroup',
        /^InertializedMixerGroup: takes 3 arguments \(solver, mixers, options\), got 4/,
      );
      const springs = new InstancedSprings(solver, new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 2));
      expectRefused(
        () => (springs.update as (dt: number, x: number) => void)(1 / 60, 1 / 60),
        'InstancedSprings',
        /^InstancedSprings\.update: takes one argument \(dt\), got 2/,
      );
      springs.dispose();
      const data = new BufferAttribute(solver.alloc(6), 3);
      expectRefused(
        () => construct(AttributeSprings, solver, data, {}, {}),
        'AttributeSprings',
        /^AttributeSprings: takes 3 arguments \(solver, attribute, options\), got 4/,
      );
      new AttributeSprings(solver, data).dispose(); // the refused one took nothing
      solver.free(data.array as Float32Array);
    } finally {
      im.dispose();
      batch.dispose();
    }
  });

  it('options that are not a plain object, a which that is not a mixer, a halflife set after dispose', () => {
    const c = crowd(2);
    const group = new InertializedMixerGroup(solver, mixersOf(c), { halflife: 0.1 });
    try {
      const before = attachState(meshesOf(c));
      expectRefused(
        () => new SkeletonBatch(solver, meshesOf(c), group as never),
        'SkeletonBatch',
        /^SkeletonBatch: options must be a plain object \(\{ source, boneWorldMatrices \}\), got InertializedMixerGroup/,
      );
      expect(attachState(meshesOf(c))).toEqual(before);
      expectRefused(
        () => group.transition(3 as never),
        'InertializedMixerGroup',
        /^InertializedMixerGroup\.transition: which must be an AnimationMixer of this group \(or an array of them\), got the number 3/,
      );
      expectRefused(
        () => group.transition([mixersOf(c)[0]!, 'x' as never]),
        'InertializedMixerGroup',
        /^InertializedMixerGroup\.transition: which\[1\] must be an AnimationMixer/,
      );
    } finally {
      group.dispose();
    }
    const springs = new InstancedSprings(solver, new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 2), { halflife: 0.2 });
    springs.dispose();
    expectRefused(
      () => {
        springs.halflife = 0.3;
      },
      'InstancedSprings',
      /^InstancedSprings\.halflife: this InstancedSprings has been disposed/,
    );
    expect(springs.halflife).toBe(0.2);
    const data = new BufferAttribute(solver.alloc(3), 3);
    const sprung = new AttributeSprings(solver, data);
    sprung.dispose();
    expectRefused(
      () => {
        sprung.halflife = 0.3;
      },
      'AttributeSprings',
      /^AttributeSprings\.halflife: this AttributeSprings has been disposed/,
    );
    solver.free(data.array as Float32Array);
  });
});
