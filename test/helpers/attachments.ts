/**
 * Objects attached under a pirouette character's bones (test/fixtures/skinned-crowd.js), as an app
 * hangs props on a skeleton: a sword in the right hand with a gem on it, a hat on the neck. Shared
 * by the SkeletonBatch tests of attachments (bones off three's traversal).
 */
import { Object3D, type Bone } from 'three';

/** A sword (a gem on it) added to the bone `rhand` and a hat to `neck` of character m's bones; returns [sword, hat]. */
export function attachProps(bones: readonly Bone[], m: number): [Object3D, Object3D] {
  const sword = new Object3D();
  sword.name = `sword ${m}`;
  sword.position.set(2, -8, 1);
  sword.rotation.set(0.3, 0.1 * m, -0.2);
  const gem = new Object3D();
  gem.name = `gem ${m}`;
  gem.position.set(0, 30, 0);
  sword.add(gem);
  bones.find((b) => b.name === 'rhand')!.add(sword);
  const hat = new Object3D();
  hat.name = `hat ${m}`;
  hat.position.set(0, 12, 0);
  hat.scale.set(1.2, 0.7, 1.2);
  bones.find((b) => b.name === 'neck')!.add(hat);
  return [sword, hat];
}
