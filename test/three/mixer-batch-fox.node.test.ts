/**
 * MixerBatch on a real glTF character, on every backend: twin crowds of the Khronos Fox
 * (data/fox/Fox.glb, loaded by three's GLTFLoader: clips Survey, Walk and Run, linear position and
 * quaternion tracks) cloned with SkeletonUtils.clone, one animated by three's mixers, one by the
 * batch, through the random script of ./mixer-batch-twins.ts (cross-fades between the clips, every
 * loop mode with repetitions, warps, jumps, an additive layer made from Run). A fourth clip's
 * track has an interpolant of its own (a custom class): its property is left to
 * three's own code, and still equals three's. Node only: reads the file.
 */
import { describe, expect, it } from 'vitest';
import { AnimationClip, AnimationUtils, Interpolant, VectorKeyframeTrack, type Object3D, type TypedArray } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { AnimationMixer } from 'three';
import { MixerBatch } from '../../dist/three/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { loadGlb } from '../fixtures/gltf-node.js';
import { runTwins, type Crowd } from './mixer-batch-twins.js';

const solvers = useSolvers();
const fox: GLTF = await loadGlb(new GLTFLoader(), new URL('../../data/fox/Fox.glb', import.meta.url));

/** An interpolant three's mixer runs but the kernel does not know (a step at the middle of each interval, like a custom one). */
class MidpointInterpolant extends Interpolant {
  override interpolate_(i1: number, t0: number, t: number, t1: number): TypedArray {
    const result = this.resultBuffer;
    const stride = this.valueSize;
    const from = (t - t0 < t1 - t ? i1 - 1 : i1) * stride;
    for (let i = 0; i < stride; i++) result[i] = this.sampleValues[from + i]!;
    return result;
  }
}

/** A clip moving one bone with the interpolant above. */
function customClip(boneName: string): AnimationClip {
  const track = new VectorKeyframeTrack(`${boneName}.position`, [0, 0.5, 1, 1.5], [0, 0, 0, 3, 1, 0, 0, 2, 5, 1, 1, 1]);
  (track as unknown as { createInterpolant: (result?: TypedArray) => Interpolant }).createInterpolant = function (
    this: VectorKeyframeTrack,
    result?: TypedArray,
  ) {
    return new MidpointInterpolant(this.times, this.values, this.getValueSize(), result);
  };
  return new AnimationClip('custom', 1.5, [track]);
}

/** `count` foxes; clips Survey, Walk, Run, the custom clip and Run as an additive layer. */
function foxes(count: number): () => Crowd {
  return () => {
    const roots = Array.from({ length: count }, () => clone(fox.scene));
    const named = (name: string): AnimationClip => fox.animations.find((c) => c.name === name)!;
    let boneName = '';
    roots[0]!.traverse((o) => {
      if (boneName === '' && (o as { isBone?: boolean }).isBone && o.parent && (o.parent as { isBone?: boolean }).isBone) boneName = o.name;
    });
    const layer = AnimationUtils.makeClipAdditive(named('Run').clone());
    const objects = roots.map((root) => {
      const list: Object3D[] = [];
      root.traverse((o) => list.push(o));
      return list;
    });
    return {
      mixers: roots.map((root) => new AnimationMixer(root)),
      objects,
      clips: [named('Survey'), named('Walk'), named('Run'), customClip(boneName), layer],
      additive: 4,
    };
  };
}

describe.each(BACKENDS)('MixerBatch on the Fox, %s', (backend) => {
  it('equals three.js bit for bit through cross-fades, loops, warps, jumps and an additive layer', () => {
    const seen = runTwins(solvers[backend], foxes(20), { frames: 400, seed: 21, rate: 0.05 });
    expect(seen.loops).toBeGreaterThan(20);
    expect(seen.finished).toBeGreaterThan(5);
  });

  it('leaves the property of a track with an interpolant of its own to three, and samples the rest', () => {
    const crowd = foxes(2)();
    for (const mixer of crowd.mixers) for (const clip of crowd.clips) mixer.clipAction(clip);
    const batch = new MixerBatch(solvers[backend], crowd.mixers);
    // the custom track's bone position: in the custom clip and in every clip that moves that bone
    const name = crowd.clips[3]!.tracks[0]!.name;
    const sharing = crowd.clips.filter((clip) => clip.tracks.some((t) => t.name === name)).length;
    const all = crowd.clips.reduce((sum, clip) => sum + clip.tracks.length, 0);
    expect(batch.tracks).toEqual({ kernel: 2 * (all - sharing), three: 2 * sharing });
    batch.dispose();
  });
});
