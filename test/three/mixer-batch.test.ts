/**
 * MixerBatch (spring-solver/three) against real three.js, on every backend: twin crowds of skinned
 * pirouettes (test/fixtures/skinned-crowd.js), one animated by three's `mixer.update(dt)`, one by
 * the batch, through a random script of everything users do with actions (./mixer-batch-twins.ts).
 * The clips: the whole capture, two parts of it (one with smooth and discrete position tracks, and
 * a material's opacity and a bone's visibility animated), and an additive layer. Equal means
 * identical (Object.is) after every frame, and the same events in the same order: three blends in
 * float64, and so does the kernel, operation for operation (src/reference/mixer-sampling.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationClip,
  AnimationMixer,
  AnimationUtils,
  BooleanKeyframeTrack,
  InterpolateDiscrete,
  InterpolateSmooth,
  LoopOnce,
  LoopRepeat,
  NumberKeyframeTrack,
  Object3D,
  QuaternionKeyframeTrack,
  VectorKeyframeTrack,
  type Material,
  type Mesh,
} from 'three';
import { MixerBatch } from '../../dist/three/index.js';
import { THREADS_2, useSolversWithThreads } from '../helpers/backends.js';
import { splitCalls } from '../helpers/thread-solvers.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import { runTwins, type Crowd } from './mixer-batch-twins.js';

/** Every backend, and where threads can run a SIMD solver on 2 threads that splits the kernel by whole mixers (any call of 32 or more). */
const { names: SOLVERS, solvers } = useSolversWithThreads();

/** A crowd's size: `count`, or on 2 threads at least the kernel's split minimum (32 mixers), so that the calls split. */
const sizeOn = (backend: string, count: number): number => (backend === THREADS_2 ? Math.max(count, 32) : count);

/** The twins' run on `backend`; on 2 threads, it checks that the kernel's calls were split. */
function twins(backend: string, make: () => Crowd, options: Parameters<typeof runTwins>[2]): ReturnType<typeof runTwins> {
  const solver = solvers[backend]!;
  const before = splitCalls(solver);
  const seen = runTwins(solver, make, options);
  if (backend === THREADS_2) expect(splitCalls(solver) - before, 'kernel calls split over the threads').toBeGreaterThan(0);
  return seen;
}

/**
 * The clips: the capture, two parts of it (the first with a one-key track and one with a repeated time; the second
 * with smooth, discrete and non-transform tracks), an additive layer.
 */
function clips(clip: AnimationClip, boneName: string, otherBone: string): { clips: AnimationClip[]; additive: number } {
  const times = clip.tracks[0]!.times;
  const fps = 1 / (times[1]! - times[0]!);
  const part1 = AnimationUtils.subclip(clip, 'part1', 40, 260, fps);
  part1.tracks.push(new VectorKeyframeTrack(`${boneName}.scale`, [0.3], [1, 1.5, 0.8]));
  part1.tracks.push(new VectorKeyframeTrack(`${otherBone}.scale`, [0, 0.5, 0.5, 1.1], [1, 1, 1, 2, 2, 2, 0.5, 0.5, 0.5, 1, 1, 1]));
  const part2 = AnimationUtils.subclip(clip, 'part2', 200, 520, fps);
  let k = 0;
  for (const track of part2.tracks) {
    if (track instanceof VectorKeyframeTrack) track.setInterpolation(k++ % 2 === 0 ? InterpolateSmooth : InterpolateDiscrete);
    else if (k++ % 5 === 0) track.setInterpolation(InterpolateDiscrete);
  }
  part2.tracks.push(new NumberKeyframeTrack('.material.opacity', [0, 0.5, 1.2, 2], [1, 0.2, 0.7, 0.4]));
  part2.tracks.push(new BooleanKeyframeTrack(`${boneName}.visible`, [0, 0.4, 1.1], [true, false, true]));
  const layer = AnimationUtils.makeClipAdditive(AnimationUtils.subclip(clip, 'layer', 300, 420, fps));
  return { clips: [clip, part1, part2, layer], additive: 3 };
}

/** A pirouette crowd of `count` with the clips above (each mesh with its own material; a quarter of the bones in Euler order ZXY). */
function pirouettes(count: number, seed: number): () => Crowd {
  return () => {
    const { characters, clip } = buildSkinnedCrowd(bvhText, count, { seed });
    const bones = characters[0]!.mesh.skeleton.bones;
    const extra = clips(clip, bones[3]!.name, bones[7]!.name);
    for (const c of characters) c.mesh.material = (c.mesh.material as Material).clone();
    // some bones keep their rotation in another order: three's onChange computes it, not the kernel's XYZ angles
    for (const c of characters) {
      c.mesh.skeleton.bones.forEach((b, j) => {
        if (j % 4 === 2) b.rotation.order = 'ZXY';
      });
    }
    return {
      mixers: characters.map((c) => c.mixer),
      objects: characters.map((c) => [c.mesh as Object3D, ...c.mesh.skeleton.bones]),
      ...extra,
    };
  };
}

/** The other animated values: the material's opacity and version (PropertyBinding sets needsUpdate), visibility. */
function extra(o: Object3D): unknown[] {
  const material = (o as Mesh).material as Material | undefined;
  return material === undefined ? [o.visible] : [o.visible, material.opacity, material.version];
}

/** Every object of `ours` equals its twin in `three` bit for bit: position, quaternion, scale and visibility. */
function expectSameObjects(ours: Object3D[][], three: Object3D[][], label: string): void {
  const values = (o: Object3D): unknown[] => [...o.position.toArray(), ...o.quaternion.toArray(), ...o.scale.toArray(), o.visible];
  ours.forEach((list, m) => list.forEach((o, i) => expect(values(o), `${label}, mixer ${m}, object ${i}`).toEqual(values(three[m]![i]!))));
}

describe.each(SOLVERS)('MixerBatch on %s', (backend) => {
  it('equals three.js bit for bit through a random script of cross-fades, loops, warps, jumps and an additive layer (varying dt)', () => {
    const seen = twins(backend, pirouettes(sizeOn(backend, 24), 3), { frames: 400, seed: 5, extra, rate: 0.04 });
    // the script reached loops and ends of LoopOnce / repetitions
    expect(seen.loops).toBeGreaterThan(20);
    expect(seen.finished).toBeGreaterThan(5);
  });

  it('equals three.js at a fixed dt, and when mixers run their own update (mixer.update / setTime) on some frames', () => {
    const seen = twins(backend, pirouettes(sizeOn(backend, 16), 9), { frames: 300, seed: 8, extra, fixedDt: true, ownUpdateEvery: 7 });
    expect(seen.loops + seen.finished).toBeGreaterThan(5);
  });

  it('refuses bad input, naming the mixer, clip and track, and changes nothing', () => {
    const solver = solvers[backend];
    const { characters, clip } = buildSkinnedCrowd(bvhText, 3, { seed: 2 });
    const mixers = characters.map((c) => c.mixer);
    expect(() => new MixerBatch(solver, [mixers[0]!, mixers[1]!, mixers[0]!])).toThrow(
      new RangeError('MixerBatch: mixers[2] is mixers[0]; a mixer can be in a batch once'),
    );
    expect(() => new MixerBatch(solver, [{} as AnimationMixer])).toThrow(TypeError);
    // unsorted times and non-finite values
    const bad = clip.clone();
    bad.name = 'bad';
    const track = bad.tracks[2]!;
    track.times = track.times.slice();
    track.times[5] = track.times[3]!;
    const nonFinite = clip.clone();
    nonFinite.name = 'nonFinite';
    const values = nonFinite.tracks[1]!;
    values.values = values.values.slice();
    values.values[7] = Number.NaN;
    const fresh = new AnimationMixer(characters[2]!.mesh);
    fresh.clipAction(bad);
    expect(() => new MixerBatch(solver, [fresh])).toThrow(
      new RangeError(
        `MixerBatch: mixers[0]'s clip "bad" track ${JSON.stringify(track.name)}: times[5] is ${track.times[5]}, before times[4] = ${track.times[4]}; keyframe times must be in ascending order`,
      ),
    );
    const other = new AnimationMixer(characters[1]!.mesh);
    other.clipAction(nonFinite);
    expect(() => new MixerBatch(solver, [other])).toThrow(
      new RangeError(
        `MixerBatch: mixers[0]'s clip "nonFinite" track ${JSON.stringify(values.name)}: values[7] is NaN; keyframe values must be finite`,
      ),
    );
    // nothing was taken over: the mixer runs itself, and can join a batch
    const batch = new MixerBatch(solver, mixers);
    expect(() => new MixerBatch(solver, [mixers[1]!])).toThrow(
      new RangeError('MixerBatch: mixers[0] is already attached to a MixerBatch; dispose it first'),
    );
    // a bad track added later: refresh refuses it and the batch keeps running as before
    mixers[0]!.clipAction(bad);
    expect(() => batch.refresh()).toThrow(/MixerBatch.refresh: mixers\[0\]'s clip "bad" track .*ascending order/);
    expect(() => batch.update(Number.NaN)).toThrow(new RangeError('MixerBatch.update: dt is NaN; it must be finite (seconds)'));
    batch.dispose();
    batch.dispose();
    expect(() => batch.update(1 / 60)).toThrow(new TypeError('MixerBatch.update: this MixerBatch has been disposed'));
    expect(() => batch.refresh()).toThrow(new TypeError('MixerBatch.refresh: this MixerBatch has been disposed'));
    // after dispose, the mixers are free again
    new MixerBatch(solver, [mixers[1]!]).dispose();
  });

  it('samples every numeric track in the kernel and leaves the boolean one to three', () => {
    const crowd = pirouettes(3, 1)();
    for (const mixer of crowd.mixers) for (const clip of crowd.clips) mixer.clipAction(clip);
    const batch = new MixerBatch(solvers[backend], crowd.mixers);
    const tracks = crowd.clips.reduce((sum, clip) => sum + clip.tracks.length, 0);
    expect(batch.tracks).toEqual({ kernel: 3 * (tracks - 1), three: 3 });
    batch.dispose();
    expect(batch.tracks).toEqual({ kernel: 0, three: 0 });
  });

  it('follows an event listener that plays a new clip on a later mixer during the update', () => {
    const make = pirouettes(4, 6);
    const sides = [make(), make()];
    for (const crowd of sides) {
      crowd.mixers.forEach((mixer, m) => {
        const action = mixer.clipAction(crowd.clips[1]!);
        action.setLoop(LoopOnce, 1);
        action.play();
        action.time = crowd.clips[1]!.duration - 0.05 * (m + 1);
      });
      // when mixer 0's action finishes, mixer 2 starts a clip it has never had an action for
      crowd.mixers[0]!.addEventListener('finished', () => crowd.mixers[2]!.clipAction(crowd.clips[2]!).play());
    }
    const [three, ours] = sides as [Crowd, Crowd];
    const batch = new MixerBatch(solvers[backend], ours.mixers);
    for (let f = 0; f < 30; f++) {
      for (const mixer of three.mixers) mixer.update(1 / 60);
      batch.update(1 / 60);
      expectSameObjects(ours.objects, three.objects, `frame ${f}`);
    }
    expect(batch.tracks.three).toBeGreaterThan(0); // mixer 2's new clip is laid out (its boolean track left to three)
    batch.dispose();
  });

  it('searches forward plays of half a key to three keys a frame, backward, to the ends, on tracks sharing equal times', () => {
    // 11 keys 0.1 s apart; the times of every track equal but separate arrays (stored once), one with −0 (kept apart)
    const times = (first: number): Float32Array => Float32Array.from({ length: 11 }, (_, i) => (i === 0 ? first : 0.1 * i));
    const values = (size: number, seed: number): number[] => Array.from({ length: 11 * size }, (_, i) => Math.sin(seed + 1.7 * i));
    const quaternions = Array.from({ length: 11 }, (_, i) => {
      const [x, y, z, w] = [Math.sin(i), Math.cos(2 * i), 0.5, 1 + 0.1 * i];
      const l = Math.hypot(x, y, z, w);
      return [x / l, y / l, z / l, w / l];
    }).flat();
    const make = (): { mixers: AnimationMixer[]; objects: Object3D[][] } => {
      const clip = new AnimationClip('steps', -1, [
        new VectorKeyframeTrack('a.position', times(0), values(3, 1)),
        new QuaternionKeyframeTrack('a.quaternion', times(0), quaternions),
        new VectorKeyframeTrack('b.position', times(0), values(3, 2), InterpolateSmooth),
        new VectorKeyframeTrack('b.scale', times(0), values(3, 3), InterpolateDiscrete),
        new VectorKeyframeTrack('c.position', times(-0), values(3, 4)),
      ]);
      const mixers: AnimationMixer[] = [];
      const objects: Object3D[][] = [];
      // per frame of 1/60 s: 0.5, 1, 1.5, 2, 2.5, 3 keys forward, and 1.2 keys backward
      [3, 6, 9, 12, 15, 18, -7.2].forEach((timeScale, m) => {
        const root = new Object3D();
        const parts = ['a', 'b', 'c'].map((name) => Object.assign(new Object3D(), { name }));
        root.add(...parts);
        const mixer = new AnimationMixer(root);
        const action = mixer.clipAction(clip).setEffectiveTimeScale(timeScale);
        if (m % 2 === 1) action.setLoop(LoopOnce, 1).clampWhenFinished = true;
        else action.setLoop(LoopRepeat, Infinity);
        action.play();
        mixers.push(mixer);
        objects.push(parts);
      });
      return { mixers, objects };
    };
    const three = make();
    const ours = make();
    const batch = new MixerBatch(solvers[backend], ours.mixers);
    // stored once: the times (twice: with 0 and with −0 first) and each track's values
    expect((batch as unknown as { arrays: { keys: Float64Array } }).arrays.keys.length).toBe(2 * 11 + 11 * (3 + 4 + 3 + 3 + 3));
    for (let f = 0; f < 90; f++) {
      for (const mixer of three.mixers) mixer.update(1 / 60);
      batch.update(1 / 60);
      expectSameObjects(ours.objects, three.objects, `frame ${f}`);
    }
    batch.dispose();
  });

  it('picks up a clip added and played after construction, and refresh() keeps the state', () => {
    const make = pirouettes(6, 4);
    const three = make();
    const ours = make();
    for (const crowd of [three, ours]) for (const mixer of crowd.mixers) mixer.clipAction(crowd.clips[1]!).play();
    const batch = new MixerBatch(solvers[backend], ours.mixers);
    const frame = (f: number): void => {
      if (f === 10) for (const crowd of [three, ours]) for (const mixer of crowd.mixers) mixer.clipAction(crowd.clips[2]!).play();
      if (f === 20) batch.refresh();
      for (const mixer of three.mixers) mixer.update(1 / 50);
      batch.update(1 / 50);
      expectSameObjects(ours.objects, three.objects, `frame ${f}`);
    };
    for (let f = 0; f < 40; f++) frame(f);
    batch.dispose();
  });
});
