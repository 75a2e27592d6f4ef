/**
 * The spring-bone step (assembly/kernels/spring-bones.ts; reference src/reference/spring-bones.ts)
 * over arrays in a solver's memory, for SpringBones. The arrays are laid out and checked once by
 * the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { N_ARGUMENT, perThread } from '../backends/wasm/threads/split.js';
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

/** Bytes of the kernel's scratch, one thread's: its 592 bytes in whole 64-byte lines. */
const SCRATCH = 640;

/** Floats of solver memory the kernel's scratch takes on `solver` (one scratch a thread). */
export function springBoneScratchLength(solver: Solver): number {
  return (SCRATCH / 4) * solver.threads;
}

/**
 * One step of every joint: (dt, alpha) => void (see springBonesStep). On a threaded solver, a step
 * of at least the kernel's split minimum (threads/thresholds.ts) is split by whole avatars (the
 * rows of `avatars`), in chunks of any number of them: each avatar's joints run in order on one
 * thread with that thread's `scratch`, and read and write nothing of another avatar, so the bits do
 * not depend on the split.
 */
export function springBoneStep(
  solver: Solver,
  a: SpringBoneArrays & { avatars: Float64Array },
  n: SpringBoneCounts,
  scratch: Float32Array,
): (dt: number, alpha: number) => void {
  if (solver.backend === 'js') return (dt, alpha) => springBonesStep(a, n.joints, n.slots, n.colliders, n.centers, dt, alpha);
  const wasm = solver as unknown as WasmSolver;
  const kernel = wasm.rawKernels.springBonesStep as unknown as (...args: number[]) => void;
  // (argument, its bytes per avatar: see threads/split.ts)
  const layout: [number, number][] = [
    ...[
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
    ].map((array): [number, number] => [array.byteOffset, 0]),
    [a.avatars.byteOffset, 8 * AVATAR],
    [n.avatars, N_ARGUMENT],
    [scratch.byteOffset, perThread(SCRATCH)],
    [0, 0], // dt
    [1, 0], // alpha
  ];
  const args = layout.map(([value]) => value);
  const advances = layout.map(([, advance]) => advance);
  const last = args.length - 1;
  if (solver.threads === 1) {
    return (dt, alpha) => {
      args[last - 1] = dt;
      args[last] = alpha;
      kernel.apply(null, args);
    };
  }
  return (dt, alpha) => {
    args[last - 1] = dt;
    args[last] = alpha;
    wasm.callKernel('springBonesStep', kernel, args, n.avatars, advances, 1, 1);
  };
}
