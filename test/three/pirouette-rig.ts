/**
 * The pirouette motion capture in real three.js: BVHLoader's skeleton under a root Object3D (the
 * mixer's root; its tracks are named "hip.quaternion" etc. and resolve by bone name), and its
 * clip. Used by the InertializedMixer tests. Node only (reads data/pirouette.bvh).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AnimationMixer, Object3D, type AnimationClip, type Bone } from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';

export const PIROUETTE_PATH = fileURLToPath(new URL('../../data/pirouette.bvh', import.meta.url));

export function loadPirouette(): { clip: AnimationClip; bones: Bone[]; text: string } {
  const text = readFileSync(PIROUETTE_PATH, 'utf8');
  const { skeleton, clip } = new BVHLoader().parse(text);
  return { clip, bones: skeleton.bones, text };
}

/** A fresh copy of the skeleton under its own root, with a mixer; bones listed in the skeleton's order. */
export function makeRig(source: Bone[]): { root: Object3D; bones: Object3D[]; mixer: AnimationMixer } {
  const root = new Object3D();
  const hip = source[0]!.clone();
  root.add(hip);
  const bones = source.map((b) => hip.getObjectByName(b.name)!);
  return { root, bones, mixer: new AnimationMixer(root) };
}
