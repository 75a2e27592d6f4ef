// Spring bones (VRMC_springBone as @pixiv/three-vrm-springbone 3.5 runs it): one step of every
// joint of `count` avatars of a SpringBones, each avatar's joints in three-vrm's order, with
// three-vrm's float64 operations in its order (assembly/vrm/joint.ts; reference
// src/reference/spring-bones.ts), so the results equal three-vrm's bit for bit. Float64 state: see
// docs/DECISIONS.md, "Spring bones". An avatar (a row of `avatars`: its ranges of joints, ext slots,
// colliders and centers) shares nothing with another, so avatars may run on different threads,
// each thread with its own scratch (592 bytes).
import { EXT, INV, OUT, O_EULER, COLLIDER, COLLIDER_WORLD, AVATAR, A_JOINTS, A_SLOTS, A_COLLIDERS, A_CENTERS, f, int, put } from '../vrm/layout';
import { SCRATCH_A, colliderAtStart, invert, jointStep, ownedColliders } from '../vrm/joint';
import { eulerXyz } from '../maths/euler-xyz';

export function springBonesStep(
  setup: usize, pose: usize, state: usize, out: usize, ext: usize, extPrev: usize, extStep: usize, extInv: usize,
  colliders: usize, colliderWorld: usize, colliderList: usize, centers: usize,
  avatars: usize, count: i32, scratch: usize, dt: f64, alpha: f64,
): void {
  const A = scratch + SCRATCH_A;
  for (let a = 0; a < count; a++) {
    const r = avatars + (<usize>(AVATAR * a) << 3);
    let e = ext;
    if (alpha < 1) {
      for (let i = EXT * int(r, A_SLOTS), end = EXT * int(r, A_SLOTS + 1); i < end; i++) {
        put(extStep, i, f(extPrev, i) + alpha * (f(ext, i) - f(extPrev, i)));
      }
      e = extStep;
    }
    for (let k = int(r, A_CENTERS), end = int(r, A_CENTERS + 1); k < end; k++) {
      const slot = int(centers, k);
      for (let i = 0; i < EXT; i++) put(A, i, f(e, EXT * slot + i));
      invert(A);
      for (let i = 0; i < INV; i++) put(extInv, INV * slot + i, f(A, i));
    }
    for (let c = int(r, A_COLLIDERS), end = int(r, A_COLLIDERS + 1); c < end; c++) {
      colliderAtStart(colliders + (<usize>(COLLIDER * c) << 3), e, colliderWorld + (<usize>(COLLIDER_WORLD * c) << 3), A);
    }
    for (let j = int(r, A_JOINTS), end = int(r, A_JOINTS + 1); j < end; j++) {
      jointStep(setup, pose, state, out, e, extInv, colliders, colliderWorld, colliderList, j, dt, scratch);
      ownedColliders(setup, out, e, colliders, colliderWorld, colliderList, j, scratch); // three-vrm moves them after the joint
    }
    // each joint's Euler angles (what the bone's rotation gets) after the avatar's joints: nothing in the step reads
    // them, and apart from the joints' chains they cost 0.05 of the step (docs/DECISIONS.md)
    for (let j = int(r, A_JOINTS), end = int(r, A_JOINTS + 1); j < end; j++) {
      const o = out + (<usize>(OUT * j) << 3);
      eulerXyz(f(o, 0), f(o, 1), f(o, 2), f(o, 3), o + (<usize>O_EULER << 3));
    }
  }
}
