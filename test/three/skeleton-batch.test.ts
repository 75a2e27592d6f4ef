/**
 * SkeletonBatch (spring-solver/three) against real three.js on a crowd of skinned pirouette
 * characters (test/fixtures/skinned-crowd.js: BVHLoader's 25-bone skeleton, SkeletonUtils.clone,
 * a mixer per character at its own time). Every crowd has a twin with the same seed, posed
 * identically, whose bone matrices three computes itself: `scene.updateMatrixWorld()` then each
 * `skeleton.update()`. The kernel performs three's float64 operations in its order
 * (src/reference/skeleton.ts) and rounds once to float32 as three's boneMatrices do, so the
 * results are compared for equality, on every backend. (The issue's own bound is
 * 1e-5·max(1, |value|).)
 */
import { describe, expect, it } from 'vitest';
import { Group, Scene, Vector3, type Bone, type SkinnedMesh } from 'three';
import { InertializedMixerGroup, SkeletonBatch } from '../../dist/three/index.js';
import { useSolversWithThreads } from '../helpers/backends.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import { firstBoneMatrixDifference, threeBoneMatrices as threeMatrices } from '../helpers/bone-matrices.js';

/**
 * Every backend, and where threads can run a SIMD solver on 2 threads that splits the kernel by
 * characters (any call of 32 or more).
 */
const { names: SOLVERS, solvers } = useSolversWithThreads();
const COUNT = 1000;

type Crowd = ReturnType<typeof buildSkinnedCrowd> & { scene: Scene; world: Group };

/** A crowd in a scene, under a "world" group that moves too (a third level above the bones). */
function crowd(count: number, seed = 7): Crowd {
  const built = buildSkinnedCrowd(bvhText, count, { seed, spacing: 250 });
  const scene = new Scene();
  const world = new Group();
  scene.add(world);
  for (const c of built.characters) world.add(c.group);
  return { ...built, scene, world };
}

/** Frame f: every mixer advanced (dt varying), the world and every character moved and turned. */
function advance(c: Crowd, f: number, updateMixers = true): void {
  const dt = 1 / 60 + (f % 5) / 500;
  if (updateMixers) for (const { mixer } of c.characters) mixer.update(dt);
  c.world.position.set(3 * f, 0.5 * Math.sin(f), -2 * f);
  c.world.rotation.y = 0.01 * f;
  c.characters.forEach(({ group }, i) => {
    group.position.x += ((i % 7) - 3) * 0.9;
    group.rotation.y += 0.003 * ((i % 5) - 2);
  });
}

/** three's own bone matrices: what its renderer computes before drawing. */
const threeBoneMatrices = (c: Crowd): Float32Array[] => threeMatrices(c.scene, meshesOf(c));
const firstDifference = firstBoneMatrixDifference;

const meshesOf = (c: Crowd): SkinnedMesh[] => c.characters.map((ch) => ch.mesh);

describe.each(SOLVERS)('SkeletonBatch on %s', (backend) => {
  it(`equals three's boneMatrices: ${COUNT} pirouettes at random times, moving roots, bones read from their objects`, () => {
    const ours = crowd(COUNT),
      theirs = crowd(COUNT);
    // a scaled bone (the objects source reads scales) on some characters
    for (const c of [ours, theirs]) {
      c.characters.forEach((ch, i) => {
        if (i % 3 === 0) ch.mesh.skeleton.bones[5]!.scale.set(1.2, 0.8, 1.1);
      });
    }
    const batch = new SkeletonBatch(solvers[backend], meshesOf(ours));
    try {
      for (let f = 0; f < 4; f++) {
        advance(ours, f);
        advance(theirs, f);
        batch.update();
        expect(firstDifference(meshesOf(ours), threeBoneMatrices(theirs))).toBeNull();
      }
    } finally {
      batch.dispose();
    }
  });

  it("equals three's boneMatrices with an InertializedMixerGroup as the source, through transitions", () => {
    const ours = crowd(64, 3),
      theirs = crowd(64, 3);
    const groups = [ours, theirs].map(
      (c) =>
        new InertializedMixerGroup(
          solvers[backend],
          c.characters.map((ch) => ch.mixer),
          { halflife: 0.15 },
        ),
    );
    const batch = new SkeletonBatch(solvers[backend], meshesOf(ours), { source: groups[0] });
    try {
      expect(groups[0]!.objectWrites).toBe(false);
      const hip = ours.characters[0]!.mesh.skeleton.bones[0]!;
      const before = hip.position.clone();
      for (let f = 0; f < 40; f++) {
        if (f % 10 === 5) {
          // jump every third character's animation, then inertialize the switch
          [ours, theirs].forEach((c, k) => {
            c.characters.forEach((ch, i) => {
              if (i % 3 === f % 3) ch.action.time = (ch.action.time + 1.3) % c.clip.duration;
            });
            groups[k]!.transition();
          });
        }
        advance(ours, f, false);
        advance(theirs, f, false);
        for (const g of groups) g!.update(1 / 60);
        batch.update();
        expect(firstDifference(meshesOf(ours), threeBoneMatrices(theirs))).toBeNull();
      }
      // the group did not write the bones: mixer → inertialization → skinning went through no per-bone object
      expect(hip.position.equals(before)).toBe(true);
    } finally {
      batch.dispose();
      for (const g of groups) g!.dispose();
    }
  });

  it('with a group source, bones the group does not animate keep their transform until refresh()', () => {
    const [ours, theirs] = [crowd(6, 4), crowd(6, 4)];
    const still = ours.characters[0]!.mesh.skeleton.bones[9]!.name;
    const groups = [ours, theirs].map((c) => {
      // a clip without the tracks of one bone, so the group does not animate it
      const clip = c.clip.clone();
      clip.tracks = clip.tracks.filter((track) => !track.name.startsWith(`${still}.`));
      for (const ch of c.characters) {
        ch.action.stop();
        ch.mixer.clipAction(clip).play();
      }
      return new InertializedMixerGroup(
        solvers[backend],
        c.characters.map((ch) => ch.mixer),
        { halflife: 0.1 },
      );
    });
    const batch = new SkeletonBatch(solvers[backend], meshesOf(ours), { source: groups[0] });
    const turn = (c: Crowd, angle: number) => {
      for (const ch of c.characters) ch.mesh.skeleton.bones[9]!.rotation.set(angle, 0, 0);
    };
    try {
      for (const [f, angle] of [
        [1, 0.4],
        [2, 0.9],
      ] as const) {
        turn(ours, angle);
        turn(theirs, angle);
        for (const g of groups) g!.update(1 / 60);
        advance(ours, f, false);
        advance(theirs, f, false);
        batch.update();
        const expected = threeBoneMatrices(theirs);
        expect(firstDifference(meshesOf(ours), expected)).not.toBeNull(); // still the transform read at construction
        batch.refresh();
        batch.update();
        expect(firstDifference(meshesOf(ours), expected)).toBeNull();
      }
      ours.characters[3]!.mesh.skeleton.bones[9]!.rotation.set(0, 1, 0);
      expect(() => batch.refresh()).toThrow(
        /meshes\[3\]'s bone .* has another quaternion than meshes\[0\]'s, and options.source does not animate it/,
      );
    } finally {
      batch.dispose();
      for (const g of groups) g!.dispose();
    }
  });

  it("writes the bones' matrixWorld when asked (float32-rounded three's)", () => {
    const ours = crowd(5),
      theirs = crowd(5);
    const batch = new SkeletonBatch(solvers[backend], meshesOf(ours), { boneWorldMatrices: true });
    try {
      advance(ours, 1);
      advance(theirs, 1);
      batch.update();
      theirs.scene.updateMatrixWorld();
      ours.characters.forEach((ch, m) => {
        ch.mesh.skeleton.bones.forEach((bone, b) => {
          const expected = theirs.characters[m]!.mesh.skeleton.bones[b]!.matrixWorld.elements.map(Math.fround);
          expect(bone.matrixWorld.elements).toEqual(expected);
        });
      });
    } finally {
      batch.dispose();
    }
  });

  it('gives three its own updates back at dispose, with a copy of the last matrices', () => {
    const c = crowd(3);
    const mesh = c.characters[0]!.mesh;
    const bone = mesh.skeleton.bones[2]!;
    const batch = new SkeletonBatch(solvers[backend], meshesOf(c));
    advance(c, 0);
    batch.update();
    const view = mesh.skeleton.boneMatrices!;
    expect(mesh.skeleton.boneTexture!.image.data).toBe(view);
    // each update flags every bone texture for upload (its version: what the renderer compares)
    const versions = (): number[] => c.characters.map((ch) => ch.mesh.skeleton.boneTexture!.version);
    const before = versions();
    batch.update();
    expect(versions()).toEqual(before.map((v) => v + 1));
    // the bones' own matrix updates are replaced by own functions, their flags left as they were
    expect(Object.hasOwn(bone, 'updateMatrixWorld') && Object.hasOwn(bone, 'updateWorldMatrix')).toBe(true);
    expect(bone.matrixAutoUpdate).toBe(true);
    const last = Float32Array.from(view);
    batch.dispose();
    batch.dispose(); // idempotent
    expect(mesh.skeleton.boneMatrices).not.toBe(view);
    expect(mesh.skeleton.boneMatrices).toEqual(last);
    expect(mesh.skeleton.boneTexture!.image.data).toBe(mesh.skeleton.boneMatrices);
    expect(Object.hasOwn(bone, 'updateMatrixWorld') || Object.hasOwn(bone, 'updateWorldMatrix')).toBe(false);
    expect(bone.matrixAutoUpdate).toBe(true);
    expect(bone.matrixWorldAutoUpdate).toBe(true);
    // three's own path runs again, and a new batch can attach
    advance(c, 1);
    const expected = threeBoneMatrices(c);
    const again = new SkeletonBatch(solvers[backend], meshesOf(c));
    again.update();
    expect(firstDifference(meshesOf(c), expected)).toBeNull();
    again.dispose();
  });

  describe('the objects above the bones (each mesh and its own groups: the root chain)', () => {
    /**
     * Twin crowds of 24, the change made to both, then every frame compared with three's; ours then
     * has the renderer's scene.updateMatrixWorld() too, as in an app (a matrixWorld three stops
     * updating keeps the value of the last render).
     */
    function compareThrough(frames: number, change: (c: Crowd, f: number) => void, options = {}): void {
      const ours = crowd(24, 5),
        theirs = crowd(24, 5);
      const batch = new SkeletonBatch(solvers[backend], meshesOf(ours), options);
      try {
        for (let f = 0; f < frames; f++) {
          for (const c of [ours, theirs]) {
            advance(c, f);
            change(c, f);
          }
          batch.update();
          expect(firstDifference(meshesOf(ours), threeBoneMatrices(theirs)), `frame ${f}`).toBeNull();
          ours.scene.updateMatrixWorld();
        }
      } finally {
        batch.dispose();
      }
    }

    it('characters moved to another parent, or given another depth, between updates', () => {
      compareThrough(5, (c, f) => {
        const { group } = c.characters[f]!;
        if (f === 1) c.scene.add(group); // out of the world group: its chain now reaches the scene
        if (f === 2) {
          const extra = new Group(); // one more level above one character only
          extra.position.set(5, 0, 1);
          c.world.add(extra);
          extra.add(c.characters[0]!.group);
        }
        if (f === 3) c.characters[5]!.group.add(c.characters[6]!.group); // a character under another's group
        if (f === 4) {
          const other = new Group(); // a mesh moved to a new group of its own, under the same world group
          other.rotation.x = 0.2;
          c.world.add(other);
          other.add(c.characters[10]!.mesh);
        }
      });
    });

    it('an object whose matrix three does not compose (matrixAutoUpdate false, a pivot, matrixWorldAutoUpdate false)', () => {
      compareThrough(4, (c, f) => {
        const [a, b, d] = [c.characters[1]!.group, c.characters[2]!.group, c.characters[3]!.mesh];
        if (f === 1) {
          a.matrixAutoUpdate = false;
          a.matrix.makeRotationZ(0.4).setPosition(10, 20, 30);
          a.matrixWorldNeedsUpdate = true;
        }
        if (f === 2) (b as unknown as { pivot: Vector3 }).pivot = new Vector3(3, -2, 1);
        if (f === 3) d.matrixWorldAutoUpdate = false;
      });
    });

    it('a scene of one level (no world group) and skeletons whose root bones hang from nothing, −0 kept', () => {
      compareThrough(2, (c, f) => {
        if (f === 0) for (const { group } of c.characters) c.scene.add(group);
      });
      // detached skeletons: the root bone has no parent; three copies its matrix (a −0 stays −0)
      const ours = crowd(6),
        theirs = crowd(6);
      for (const c of [ours, theirs]) {
        for (const { mesh } of c.characters) {
          mesh.skeleton.bones[0]!.removeFromParent();
          mesh.bindMode = 'detached';
        }
      }
      const batch = new SkeletonBatch(solvers[backend], meshesOf(ours), { boneWorldMatrices: true });
      try {
        for (const c of [ours, theirs]) {
          advance(c, 0);
          for (const { mesh } of c.characters) mesh.skeleton.bones[0]!.position.x = -0;
        }
        batch.update();
        // three's renderer updates no bone outside the scene: the twin's root bones by hand
        for (const { mesh } of theirs.characters) mesh.skeleton.bones[0]!.updateMatrixWorld(true);
        expect(firstDifference(meshesOf(ours), threeBoneMatrices(theirs))).toBeNull();
        ours.characters.forEach(({ mesh }, m) => {
          const got = mesh.skeleton.bones[0]!.matrixWorld.elements;
          expect(Object.is(got[12], -0), `mesh ${m}: the root bone's x`).toBe(true);
          expect(got).toEqual(theirs.characters[m]!.mesh.skeleton.bones[0]!.matrixWorld.elements.map(Math.fround));
        });
      } finally {
        batch.dispose();
      }
    });
  });

  describe('bad input: a clear error, nothing written', () => {
    it('meshes whose skeletons differ in layout', () => {
      const c = crowd(3);
      const [a, b] = meshesOf(c) as [SkinnedMesh, SkinnedMesh];
      const s = solvers[backend];
      const lastBone = b.skeleton.bones.pop()!;
      expect(() => new SkeletonBatch(s, [a, b])).toThrow(/meshes\[1\]'s skeleton has 24 bones, meshes\[0\]'s 25/);
      b.skeleton.bones.push(lastBone);
      const [x, y] = [b.skeleton.bones[3]!, b.skeleton.bones[4]!];
      b.skeleton.bones[3] = y;
      b.skeleton.bones[4] = x;
      expect(() => new SkeletonBatch(s, [a, b])).toThrow(/meshes\[1\]'s bone .* \(bone \d+\) has another parent/);
      b.skeleton.bones[3] = x;
      b.skeleton.bones[4] = y;
      b.skeleton.boneInverses = b.skeleton.boneInverses.map((m, i) => (i === 6 ? m.clone().setPosition(1, 2, 3) : m));
      expect(() => new SkeletonBatch(s, [a, b])).toThrow(/meshes\[1\]'s inverse bind matrix of bone 6 differs/);
      // nothing was taken over
      expect(Object.hasOwn(a.skeleton.bones[0]!, 'updateMatrixWorld')).toBe(false);
      expect(Object.hasOwn(a.skeleton, 'update')).toBe(false);
    });

    it('a bone whose parent is outside the skeleton, not where the root hangs', () => {
      const c = crowd(1);
      const mesh = c.characters[0]!.mesh;
      const elbow = mesh.skeleton.bones[8]!;
      const link = new Group();
      link.name = 'link';
      elbow.parent!.add(link);
      link.add(elbow);
      expect(() => new SkeletonBatch(solvers[backend], [mesh])).toThrow(/bone .* hangs from "link", not a bone of the skeleton/);
    });

    it('a non-finite transform: RangeError naming the mesh and the bone; boneMatrices unchanged', () => {
      const c = crowd(6);
      const batch = new SkeletonBatch(solvers[backend], meshesOf(c));
      try {
        advance(c, 0);
        batch.update();
        const before = meshesOf(c).map((m) => Float32Array.from(m.skeleton.boneMatrices!));
        const bone = c.characters[4]!.mesh.skeleton.bones[7] as Bone;
        bone.quaternion.set(0, Number.NaN, 0, 1);
        advance(c, 1, false);
        expect(() => batch.update()).toThrow(new RegExp(`meshes\\[4\\]'s bone "${bone.name}" has quaternion NaN`));
        expect(firstDifference(meshesOf(c), before)).toBeNull();
        bone.quaternion.set(0, 0, 0, 1);
        // the character's own group: a level of its root chain, read by the batch
        c.characters[2]!.group.name = 'character 2';
        c.characters[2]!.group.position.x = Number.POSITIVE_INFINITY;
        expect(() => batch.update()).toThrow(
          /meshes\[2\]'s bones hang below "character 2", whose position has Infinity; it must be finite/,
        );
        expect(firstDifference(meshesOf(c), before)).toBeNull();
        c.characters[2]!.group.position.x = 0;
        // the world group every character hangs from: the chains' top, brought up to date by three
        c.world.scale.y = Number.NaN;
        expect(() => batch.update()).toThrow(/meshes\[0\]'s root bones hang from .* not finite and affine/);
        expect(firstDifference(meshesOf(c), before)).toBeNull();
      } finally {
        batch.dispose();
      }
    });

    it('a disposed batch, a mesh attached twice, a source group of other mixers', () => {
      const c = crowd(4);
      const s = solvers[backend];
      const batch = new SkeletonBatch(s, meshesOf(c).slice(0, 2));
      expect(() => new SkeletonBatch(s, meshesOf(c).slice(1))).toThrow(/meshes\[0\]'s skeleton is already attached/);
      expect(() => new SkeletonBatch(s, [meshesOf(c)[2]!, meshesOf(c)[2]!])).toThrow(/meshes\[1\] is also meshes\[0\]/);
      batch.dispose();
      expect(() => batch.update()).toThrow(/SkeletonBatch.update: this SkeletonBatch has been disposed/);
      const group = new InertializedMixerGroup(
        s,
        c.characters.slice(0, 3).map((ch) => ch.mixer),
        { halflife: 0.1 },
      );
      expect(() => new SkeletonBatch(s, meshesOf(c), { source: group })).toThrow(/options.source has 3 mixers for 4 meshes/);
      expect(group.objectWrites).toBe(true);
      const reading = new SkeletonBatch(s, meshesOf(c).slice(0, 3), { source: group });
      group.dispose();
      expect(() => reading.update()).toThrow(/SkeletonBatch.update: options.source: this InertializedMixerGroup has been disposed/);
      reading.dispose();
      expect(() => new SkeletonBatch(s, [])).toThrow(TypeError);
      expect(() => new SkeletonBatch(s, meshesOf(c), { source: 'bones' as never })).toThrow(
        /options.source must be 'objects', a MixerBatch or an InertializedMixerGroup/,
      );
    });
  });
});
