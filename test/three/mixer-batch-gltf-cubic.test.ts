/**
 * MixerBatch on glTF's CUBICSPLINE animations, as three's GLTFLoader makes them (its own
 * GLTFCubicSplineInterpolant and quaternion variant, which three does not export): a .glb built in
 * memory (test/fixtures/cubic-spline-glb.js; cubic translation, rotation and scale channels beside
 * a linear and a step one) parsed by GLTFLoader, twin crowds of its scene's clones, one animated by
 * three's mixers and one by the batch, through the random script of ./mixer-batch-twins.ts
 * (cross-fades between the two clips, loop modes with clamping, warps, jumps, an additive layer
 * made from a cubic clip), on every backend. The kernel takes every track (none left to three).
 */
import { describe, expect, it } from 'vitest';
import { AnimationMixer, AnimationUtils, type Object3D } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MixerBatch } from '../../dist/three/index.js';
import { cubicSplineGlb } from '../fixtures/cubic-spline-glb.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { runTwins, type Crowd } from './mixer-batch-twins.js';

const solvers = useSolvers();
const gltf: GLTF = await new Promise((resolve, reject) => new GLTFLoader().parse(cubicSplineGlb(7), '', resolve, reject));

/** `count` clones of the scene, each with a mixer; clips "cubic", "cubic slow" and "cubic" as an additive layer. */
function crowd(count: number): () => Crowd {
  return () => {
    const roots = Array.from({ length: count }, () => gltf.scene.clone());
    const [cubic, slow] = gltf.animations;
    const layer = AnimationUtils.makeClipAdditive(cubic!.clone());
    return {
      mixers: roots.map((root) => new AnimationMixer(root)),
      objects: roots.map((root) => {
        const list: Object3D[] = [];
        root.traverse((o) => list.push(o));
        return list;
      }),
      clips: [cubic!, slow!, layer],
      additive: 2,
    };
  };
}

describe.each(BACKENDS)('MixerBatch on glTF cubic-spline clips, %s', (backend) => {
  it("takes GLTFLoader's cubic-spline tracks into the kernel", () => {
    const { mixers, clips } = crowd(3)();
    for (const mixer of mixers) for (const clip of clips) mixer.clipAction(clip).play();
    const names = (
      gltf.animations[0]!.tracks as unknown as { createInterpolant: { isInterpolantFactoryMethodGLTFCubicSpline?: boolean } }[]
    )
      .map((t) => t.createInterpolant.isInterpolantFactoryMethodGLTFCubicSpline === true)
      .filter(Boolean).length;
    expect(names).toBe(4); // the fixture's four CUBICSPLINE channels a clip
    const batch = new MixerBatch(solvers[backend], mixers);
    const all = clips.reduce((sum, clip) => sum + clip.tracks.length, 0);
    expect(batch.tracks).toEqual({ kernel: 3 * all, three: 0 });
    batch.dispose();
  });

  it('equals three.js bit for bit through cross-fades, loops, warps, jumps and an additive layer', () => {
    const seen = runTwins(solvers[backend], crowd(12), { frames: 400, seed: 29, rate: 0.05 });
    expect(seen.loops).toBeGreaterThan(20);
    expect(seen.finished).toBeGreaterThan(3);
  });
});
