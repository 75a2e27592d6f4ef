/**
 * Twin crowds for MixerBatch's tests: two identical crowds (same seed), one animated by three's
 * own `mixer.update(dt)`, one by a MixerBatch, driven by the same random script of what users do
 * with actions (cross-fades, fades, weights, time scales and warps, pauses, enabling, jumps of
 * `action.time`, stop/play, loop modes with repetitions, clampWhenFinished, zero-slope endings,
 * additive layers, `mixer.timeScale`, `mixer.setTime`, scheduled starts), with fixed and varying
 * dt (0 and negative ones among them). Every animated property of every object, and every 'loop'
 * and 'finished' event with its payload, are compared for identity (Object.is) after each frame.
 */
import {
  AdditiveAnimationBlendMode,
  LoopOnce,
  LoopPingPong,
  LoopRepeat,
  type AnimationAction,
  type AnimationClip,
  type AnimationMixer,
  type Object3D,
} from 'three';
import { expect } from 'vitest';
import type { Solver } from '../../dist/index.js';
import { MixerBatch } from '../../dist/three/index.js';
import { mulberry32 } from '../helpers/random.js';

/** One crowd: its mixers (mixer m animates objects[m]) and the clips each mixer plays (the last one may be additive). */
export interface Crowd {
  mixers: AnimationMixer[];
  objects: Object3D[][];
  clips: AnimationClip[];
  /** The index in `clips` of an additive clip, or −1. */
  additive: number;
}

export interface Side {
  crowd: Crowd;
  actions: AnimationAction[][];
  events: string[][];
}

const LOOPS = [LoopOnce, LoopRepeat, LoopPingPong];

/** Actions for every clip, each character's settings drawn from `seed`, one action playing from a random time. */
export function prepare(crowd: Crowd, seed: number): Side {
  const random = mulberry32(seed);
  const events: string[][] = crowd.mixers.map(() => []);
  const actions = crowd.mixers.map((mixer, m) => {
    const list = crowd.clips.map((clip, k) =>
      k === crowd.additive ? mixer.clipAction(clip, undefined, AdditiveAnimationBlendMode) : mixer.clipAction(clip),
    );
    for (const action of list) {
      action.setLoop(LOOPS[Math.floor(random() * 3)]!, random() < 0.3 ? Infinity : 1 + Math.floor(random() * 3));
      action.clampWhenFinished = random() < 0.5;
      action.zeroSlopeAtStart = random() < 0.5;
      action.zeroSlopeAtEnd = random() < 0.5;
    }
    const first = list[Math.floor(random() * (crowd.additive >= 0 ? list.length - 1 : list.length))]!.play();
    first.time = random() * first.getClip().duration;
    const name = (e: { action: AnimationAction }): number => list.indexOf(e.action);
    mixer.addEventListener('loop', (e) => events[m]!.push(`loop ${name(e)} ${e.loopDelta}`));
    mixer.addEventListener('finished', (e) => events[m]!.push(`finished ${name(e)} ${e.direction}`));
    return list;
  });
  return { crowd, actions, events };
}

/** One user operation (code, with its random parameters) on character m. */
export function operate(side: Side, m: number, code: number, p: number[]): void {
  const list = side.actions[m]!;
  const mixer = side.crowd.mixers[m]!;
  const pick = (x: number): AnimationAction => list[Math.floor(x * list.length)]!;
  const a = pick(p[0]!);
  const b = pick(p[1]!);
  switch (code) {
    case 0:
      if (a !== b) {
        b.reset().play();
        a.crossFadeTo(b, 0.1 + p[2]!, p[3]! < 0.5);
      }
      break;
    case 1:
      a.fadeOut(p[2]!);
      b.play().fadeIn(p[3]!);
      break;
    case 2:
      a.setEffectiveWeight(p[2]! * 1.5);
      break;
    case 3:
      a.setEffectiveTimeScale(p[2]! < 0.1 ? 0 : 3 * p[2]! - 1);
      break;
    case 4:
      a.warp(p[2]!, 2 * p[3]!, 0.05 + p[2]!);
      break;
    case 5:
      a.paused = !a.paused;
      break;
    case 6:
      a.enabled = !a.enabled;
      break;
    case 7:
      a.time = (p[2]! * 3 - 1) * a.getClip().duration;
      break;
    case 8:
      if (a.isRunning()) a.stop();
      else a.play();
      break;
    case 9:
      mixer.timeScale = p[2]! < 0.15 ? 0 : 2 * p[2]! - 0.3;
      break;
    case 10:
      if (side.crowd.additive >= 0) {
        const layer = list[side.crowd.additive]!;
        if (p[2]! < 0.3) layer.stop();
        else layer.play().setEffectiveWeight(p[3]!);
      }
      break;
    case 11:
      mixer.setTime(p[2]! * 3);
      break;
    case 12:
      a.setLoop(LOOPS[Math.floor(p[2]! * 3)]!, 1 + Math.floor(p[3]! * 4));
      a.clampWhenFinished = !a.clampWhenFinished;
      a.play();
      break;
    case 13:
      a.reset()
        .startAt(mixer.time + p[2]! * 0.3)
        .play();
      break;
    case 14:
      a.halt(0.05 + p[2]!);
      break;
  }
}

export const OPERATIONS = 15;

/** An object's transform as numbers: position, quaternion, scale and rotation (the Euler three keeps beside the quaternion). */
export const transformOf = (o: Object3D): number[] => [
  ...o.position.toArray(),
  ...o.quaternion.toArray(),
  ...o.scale.toArray(),
  o.rotation.x,
  o.rotation.y,
  o.rotation.z,
];

/** The animated values of every object, as numbers (position, quaternion, scale, rotation) plus the other animated ones. */
function pose(crowd: Crowd, extra: (o: Object3D) => unknown[]): unknown[][] {
  return crowd.objects.map((list) => list.flatMap((o) => [...transformOf(o), o.matrixWorldNeedsUpdate, ...extra(o)]));
}

/** Object.is element by element, naming the first difference. */
export function expectIdentical(actual: unknown[][], expected: unknown[][], what: string): void {
  for (let m = 0; m < expected.length; m++) {
    const a = actual[m]!;
    const e = expected[m]!;
    for (let i = 0; i < e.length; i++) {
      if (!Object.is(a[i], e[i])) expect.fail(`${what}: character ${m}, value ${i}: ${String(a[i])}, three.js ${String(e[i])}`);
    }
  }
}

export interface TwinOptions {
  frames: number;
  seed: number;
  /** Operations per character per frame (probability). */
  rate?: number;
  /** Values besides the transforms to compare for each object. */
  extra?: (o: Object3D) => unknown[];
  /** Fixed dt (1/60) instead of varying ones. */
  fixedDt?: boolean;
  /** Mixers updated by their own `mixer.update` (the batch's share) on these frames, instead of batch.update. */
  ownUpdateEvery?: number;
}

/**
 * Runs the twins for `frames` frames and compares after each; returns the counts of events seen
 * (so a test can check that the script reached what it means to test).
 */
export function runTwins(solver: Solver, make: () => Crowd, options: TwinOptions): { loops: number; finished: number; frames: number } {
  const { frames, seed, rate = 0.05, extra = () => [], fixedDt = false, ownUpdateEvery = 0 } = options;
  const three = prepare(make(), seed);
  const ours = prepare(make(), seed);
  const batch = new MixerBatch(solver, ours.crowd.mixers);
  try {
    const random = mulberry32(seed + 1);
    expectIdentical(pose(ours.crowd, extra), pose(three.crowd, extra), 'before the first frame');
    for (let f = 0; f < frames; f++) {
      for (let m = 0; m < three.crowd.mixers.length; m++) {
        if (random() >= rate) continue;
        const code = Math.floor(random() * OPERATIONS);
        const p = [random(), random(), random(), random()];
        operate(three, m, code, p);
        operate(ours, m, code, p);
      }
      const r = random();
      const dt = fixedDt ? 1 / 60 : r < 0.05 ? 0 : r < 0.1 ? -r / 10 : r < 0.12 ? 0.5 + r : 0.002 + r / 30;
      for (const mixer of three.crowd.mixers) mixer.update(dt);
      if (ownUpdateEvery > 0 && f % ownUpdateEvery === 0) for (const mixer of ours.crowd.mixers) mixer.update(dt);
      else batch.update(dt);
      expectIdentical(pose(ours.crowd, extra), pose(three.crowd, extra), `frame ${f}`);
      expect(ours.events).toEqual(three.events);
    }
  } finally {
    batch.dispose();
  }
  // after dispose the mixers run themselves, from the state the batch left
  for (let f = 0; f < 20; f++) {
    for (const mixer of three.crowd.mixers) mixer.update(1 / 60);
    for (const mixer of ours.crowd.mixers) mixer.update(1 / 60);
    expectIdentical(pose(ours.crowd, extra), pose(three.crowd, extra), `after dispose, frame ${f}`);
  }
  expect(ours.events).toEqual(three.events);
  const all = three.events.flat();
  return { loops: all.filter((e) => e.startsWith('loop')).length, finished: all.filter((e) => e.startsWith('finished')).length, frames };
}
