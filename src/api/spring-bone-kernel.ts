/**
 * The spring-bone step (assembly/kernels/spring-bones.ts; reference src/reference/spring-bones.ts)
 * over arrays in a solver's memory, for SpringBones. The arrays are laid out and checked once by
 * the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { AVATAR } from '../reference/spring-bone-layout.js';
import { springBonesStep, type SpringBoneArrays } from '../reference/spring-bones.js';

/** The sizes of one layout: joints, ext slots, colliders, centers and avatars (rows of the avatar table). */
export interface SpringBoneCounts {
  joints: number;
  slots: number;
  colliders: number;
  centers: number;
  avatars: number;
}

/** A step of the avatars [avatar, avatar + avatars) of the table: dt in seconds, alpha as springBonesStep's. */
export type SpringBoneStep = (dt: number, alpha: number, avatar: number, avatars: number) => void;

/** Bytes of the kernel's scratch: its 592 bytes in whole 64-byte lines. */
const SCRATCH = 640;

/** Floats of solver memory the kernel's scratch takes. */
export const SPRING_BONE_SCRATCH_FLOATS = SCRATCH / 4;

/**
 * One step of the joints of `avatars` rows from `avatar` (rows of the avatar table, a manager
 * each): (dt, alpha, avatar, avatars) => void (see springBonesStep). The rows run in order
 * on the calling thread, on any solver: a row may read what an earlier row computed, as three-vrm's
 * managers run one after the other (docs/DECISIONS.md, "Spring bones in spans").
 */
export function springBoneStep(
  solver: Solver,
  a: SpringBoneArrays & { avatars: Float64Array },
  n: SpringBoneCounts,
  scratch: Float32Array,
): SpringBoneStep {
  if (solver.backend === 'js') return (dt, alpha, avatar, avatars) => springBonesStep(a, a.avatars, avatar, avatars, dt, alpha);
  const kernel = (solver as unknown as WasmSolver).rawKernels.springBonesStep as unknown as (...args: number[]) => void;
  const args = [
    a.setup,
    a.pose,
    a.state,
    a.out,
    a.ext,
    a.extPrev,
    a.extStep,
    a.extInv,
    a.colliders,
    a.colliderWorld,
    a.colliderList,
    a.centers,
  ].map((array) => array.byteOffset);
  const table = args.length;
  args.push(a.avatars.byteOffset, n.avatars, scratch.byteOffset, 0, 1); // the table, its rows, scratch, dt, alpha
  return (dt, alpha, avatar, avatars) => {
    args[table] = a.avatars.byteOffset + 8 * AVATAR * avatar;
    args[table + 1] = avatars;
    args[table + 3] = dt;
    args[table + 4] = alpha;
    kernel.apply(null, args);
  };
}
