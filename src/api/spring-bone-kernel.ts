/**
 * The spring-bone step (assembly/kernels/spring-bones.ts; reference src/reference/spring-bones.ts)
 * over arrays in a solver's memory, for SpringBones. The arrays are laid out and checked once by
 * the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { springBonesStep, type SpringBoneArrays } from '../reference/spring-bones.js';

/** The sizes of one layout: joints, ext slots, colliders and centers. */
export interface SpringBoneCounts {
  joints: number;
  slots: number;
  colliders: number;
  centers: number;
}

/** One step of every joint: (dt, alpha) => void (see springBonesStep). */
export function springBoneStep(solver: Solver, a: SpringBoneArrays, n: SpringBoneCounts): (dt: number, alpha: number) => void {
  if (solver.backend === 'js') return (dt, alpha) => springBonesStep(a, n.joints, n.slots, n.colliders, n.centers, dt, alpha);
  const kernel = (solver as unknown as WasmSolver).rawKernels.springBonesStep;
  const p = [a.setup, a.state, a.out, a.ext, a.extPrev, a.extStep, a.extInv, a.colliders, a.colliderWorld, a.colliderList, a.centers].map(
    (array) => array.byteOffset,
  );
  const [setup, state, out, ext, extPrev, extStep, extInv, colliders, colliderWorld, colliderList, centers] = p as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return (dt, alpha) =>
    kernel(
      setup,
      state,
      out,
      ext,
      extPrev,
      extStep,
      extInv,
      colliders,
      colliderWorld,
      colliderList,
      centers,
      n.joints,
      n.slots,
      n.colliders,
      n.centers,
      dt,
      alpha,
    );
}
