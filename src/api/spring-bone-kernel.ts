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

/** A step of the avatars [avatar, avatar + avatars) of the table: dt in seconds, alpha as springBonesStep's. */
export type SpringBoneStep = (dt: number, alpha: number, avatar: number, avatars: number) => void;

/**
 * The step on the calling thread (split over the threads on a threaded solver), and on a threaded
 * solver the same step begun on the workers alone while the calling thread goes on, with the wait
 * for it (null on one thread).
 */
export interface SpringBoneKernel {
  step: SpringBoneStep;
  background: { begin: SpringBoneStep; finish(): void } | null;
}

/** Bytes of the kernel's scratch, one thread's: its 592 bytes in whole 64-byte lines. */
const SCRATCH = 640;

/** Floats of solver memory the kernel's scratch takes on `solver` (one scratch a thread). */
export function springBoneScratchLength(solver: Solver): number {
  return (SCRATCH / 4) * solver.threads;
}

/**
 * One step of the rows [avatar, avatar + avatars) of the avatar table (a manager each): (dt,
 * alpha, avatar, avatars) => void (see springBonesStep), and on a threaded solver the same step
 * in the background. SpringBones gives it a span (spans.ts): rows that read and write nothing of
 * each other. On a threaded solver, a span of at least the kernel's split minimum
 * (threads/thresholds.ts) is split by whole rows, each row's joints in order on one thread with
 * that thread's `scratch`, so the bits do not depend on the split; in the background, the span's
 * rows are split over the workers alike.
 */
export function springBoneKernel(
  solver: Solver,
  a: SpringBoneArrays & { avatars: Float64Array },
  n: SpringBoneCounts,
  scratch: Float32Array,
): SpringBoneKernel {
  if (solver.backend === 'js')
    return { step: (dt, alpha, avatar, avatars) => springBonesStep(a, a.avatars, avatar, avatars, dt, alpha), background: null };
  // (name, value, bytes a row of the avatar table: see threads/split.ts)
  const kernel = (solver as unknown as WasmSolver).bind(
    'springBonesStep',
    [
      ['setup', a.setup.byteOffset, 0],
      ['pose', a.pose.byteOffset, 0],
      ['state', a.state.byteOffset, 0],
      ['out', a.out.byteOffset, 0],
      ['ext', a.ext.byteOffset, 0],
      ['extPrev', a.extPrev.byteOffset, 0],
      ['extStep', a.extStep.byteOffset, 0],
      ['extInv', a.extInv.byteOffset, 0],
      ['colliders', a.colliders.byteOffset, 0],
      ['colliderWorld', a.colliderWorld.byteOffset, 0],
      ['colliderList', a.colliderList.byteOffset, 0],
      ['centers', a.centers.byteOffset, 0],
      ['avatars', a.avatars.byteOffset, 8 * AVATAR], // the table, from the step's first row
      ['count', n.avatars, N_ARGUMENT],
      ['scratch', scratch.byteOffset, perThread(SCRATCH)],
      ['dt', 0, 0],
      ['alpha', 1, 0],
    ],
    { minChunk: 1, align: 1 },
  );
  const [table, dtAt, alphaAt] = [kernel.index('avatars'), kernel.index('dt'), kernel.index('alpha')];
  const set = (dt: number, alpha: number, avatar: number): void => {
    kernel.args[table] = a.avatars.byteOffset + 8 * AVATAR * avatar;
    kernel.args[dtAt] = dt;
    kernel.args[alphaAt] = alpha;
  };
  const background = kernel.background;
  return {
    step: (dt, alpha, avatar, avatars) => {
      set(dt, alpha, avatar);
      kernel.run(avatars);
    },
    background: background && {
      begin: (dt, alpha, avatar, avatars) => {
        set(dt, alpha, avatar);
        background.begin(avatars);
      },
      finish: () => background.finish(),
    },
  };
}
