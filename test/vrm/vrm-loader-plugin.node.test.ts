/**
 * The README's VRM recipe on a .vrm file loaded as an app loads one: three's GLTFLoader with
 * three-vrm's VRMLoaderPlugin (`gltf.userData.vrm`: humanoid, meta, spring bones), on
 * test/fixtures/vrm/tiny-avatar.vrm (VRM 1.0, made by scripts/make-test-vrm.mjs: four spring chains,
 * sphere and capsule colliders, a center). Three copies of the avatar walk and turn, their heads
 * and hips posed through the humanoid's normalized bones; a twin crowd runs three-vrm's own
 * `vrm.update(dt)`, ours the same `vrm.update(dt)` (spring bones skipped while attached) and one
 * `SpringBones.update(dt)`. Every joint must agree exactly, on every backend, as in
 * test/vrm/loader.test.ts. Node only: reads the file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Euler, Quaternion } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import { SpringBones } from '../../dist/vrm/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { TwinJoints } from '../helpers/twin-joints.js';
import { loadGlb } from '../fixtures/gltf-node.js';
import { makeTestVrm, TEST_VRM } from '../../scripts/make-test-vrm.mjs';

const solvers = useSolvers();
const AVATARS = 3;
const FRAMES = 300;

/** `count` avatars loaded from the fixture, each its own copy. */
async function load(count: number): Promise<VRM[]> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const vrms: VRM[] = [];
  for (let i = 0; i < count; i++) vrms.push((await loadGlb(loader, TEST_VRM)).userData.vrm as VRM);
  return vrms;
}

const turn = new Quaternion();
/** Avatar i at time t: walking in a circle and turning, the hips swaying, the head nodding. */
function pose(vrm: VRM, i: number, t: number): void {
  const a = 0.8 * t + i;
  vrm.scene.position.set(2 * Math.cos(a) + 3 * i, 0.04 * Math.sin(9 * t), 2 * Math.sin(a));
  vrm.scene.rotation.y = -a;
  vrm.humanoid.getNormalizedBoneNode('hips')!.quaternion.setFromEuler(new Euler(0, 0.3 * Math.sin(2 * t), 0.15 * Math.sin(4 * t)));
  vrm.humanoid
    .getNormalizedBoneNode('head')!
    .quaternion.copy(turn.setFromEuler(new Euler(0.5 * Math.sin(2.7 * t + i), 0.6 * Math.sin(t), 0)));
}

describe('the VRM fixture', () => {
  it('is what scripts/make-test-vrm.mjs makes, and loads as a VRM with its humanoid and spring bones', async () => {
    expect(Buffer.from(makeTestVrm()).equals(readFileSync(TEST_VRM)), 'run node scripts/make-test-vrm.mjs').toBe(true);
    const [vrm] = await load(1);
    expect(vrm!.humanoid.getNormalizedBoneNode('hips')).not.toBeNull();
    const manager = vrm!.springBoneManager!;
    expect(manager.joints.size).toBe(14); // 3 + 3 + 4 + 4: a joint per node of each chain but its tip
    expect(manager.colliders.map((c) => c.shape.type).sort()).toEqual(['capsule', 'capsule', 'capsule', 'sphere', 'sphere']);
    expect([...manager.joints].some((j) => j.center !== null)).toBe(true);
  });
});

describe.each(BACKENDS)('SpringBones on avatars from VRMLoaderPlugin: %s', (backend) => {
  it(`every joint of ${AVATARS} walking avatars equals three-vrm's over ${FRAMES} frames`, async () => {
    const theirs = await load(AVATARS);
    const ours = await load(AVATARS);
    const bones = new SpringBones(
      solvers[backend],
      ours.map((vrm) => vrm.springBoneManager!),
    );
    const jointsOf = (vrms: VRM[]) => vrms.flatMap((vrm) => [...vrm.springBoneManager!.joints]);
    expect(jointsOf(ours).length).toBe(14 * AVATARS);
    const twins = new TwinJoints(jointsOf(theirs), jointsOf(ours));
    try {
      for (let f = 0; f < FRAMES; f++) {
        const dt = f < 150 ? 1 / 60 : 1 / 144 + ((f * 37) % 10) / 300;
        const t = f / 60;
        theirs.forEach((vrm, i) => pose(vrm, i, t));
        ours.forEach((vrm, i) => pose(vrm, i, t));
        for (const vrm of theirs) vrm.update(dt);
        for (const vrm of ours) vrm.update(dt); // humanoid and the rest; spring bones skipped while attached
        bones.update(dt);
        twins.compare(f);
      }
    } finally {
      bones.dispose();
    }
    expect(twins.differences.slice(0, 3)).toEqual([]);
    expect(twins.moved).toBeGreaterThan(0.2);
  });
});
