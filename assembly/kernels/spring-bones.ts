// Spring bones (VRMC_springBone as @pixiv/three-vrm-springbone 3.5 runs it): one step of every
// joint of every avatar of a SpringBones, parents before children, with three-vrm's float64
// operations in its order (assembly/vrm/joint.ts; reference src/reference/spring-bones.ts), so the
// results equal three-vrm's bit for bit. Float64 state: see docs/DECISIONS.md, "Spring bones".
import { EXT, INV, COLLIDER, COLLIDER_WORLD, C_OWNER, C_SLOT, f, put, d } from '../vrm/layout';
import { A, colliderToWorld, invert, jointStep, loadAffine, ownedColliders } from '../vrm/joint';

export function springBonesStep(
  setup: usize, state: usize, out: usize, ext: usize, extPrev: usize, extStep: usize, extInv: usize,
  colliders: usize, colliderWorld: usize, colliderList: usize, centers: usize,
  joints: i32, slots: i32, colliderCount: i32, centerCount: i32, dt: f64, alpha: f64,
): void {
  let e = ext;
  if (alpha < 1) {
    for (let i = 0; i < EXT * slots; i++) put(extStep, i, f(extPrev, i) + alpha * (f(ext, i) - f(extPrev, i)));
    e = extStep;
  }
  for (let k = 0; k < centerCount; k++) {
    const slot = <i32>f(centers, k);
    loadAffine(A, e, EXT * slot);
    invert(A);
    for (let i = 0; i < INV; i++) put(extInv, INV * slot + i, d(A, i));
  }
  for (let c = 0; c < colliderCount; c++) {
    const cp = colliders + (<usize>(COLLIDER * c) << 3);
    if (f(cp, C_OWNER) < 0) colliderToWorld(cp, e + (<usize>(EXT * <i32>f(cp, C_SLOT)) << 3), colliderWorld + (<usize>(COLLIDER_WORLD * c) << 3));
  }
  for (let j = 0; j < joints; j++) {
    jointStep(setup, state, out, e, extInv, colliders, colliderWorld, colliderList, j, dt);
    ownedColliders(setup, out, e, colliders, colliderWorld, colliderList, j); // three-vrm updates them after the joint
  }
}
