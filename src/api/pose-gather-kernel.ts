/**
 * The gather of a MixerBatch's pose into a consumer's arrays (assembly/kernels/pose-gather.ts;
 * reference src/reference/pose-gather.ts) over arrays in a solver's memory, for
 * InertializedMixerGroup and the SkeletonBatch reader of a MixerBatch. The arrays are laid out and
 * checked once by the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { N_ARGUMENT } from '../backends/wasm/threads/split.js';
import { ROW_INTS, gatherPose, type GatherArrays, type GatherTargets } from '../reference/pose-gather.js';

/** The smallest chunk of a split call, in mixers (about 40 elements of a few ns each a pirouette). */
const MIN_CHUNK = 64;

/**
 * Mixers `first` … `first + count − 1` gathered into `to` (its arrays in the same solver's memory,
 * float32 or float64 as `f32` says), the values in use left as they are when `copied` (MixerBatch's
 * sampler wrote them there): (to, first, count, copied) => void. On a threaded solver, a call of at
 * least the kernel's split minimum (threads/thresholds.ts) is split by whole mixers, which share
 * nothing written.
 */
export function gatherPoseCall(
  solver: Solver,
  a: GatherArrays,
  f32: boolean,
): (to: GatherTargets, first: number, count: number, copied: boolean) => void {
  if (solver.backend === 'js') return (to, first, count, copied) => gatherPose(a, to, first, count, copied);
  const ROW_BYTES = 4 * ROW_INTS;
  const ACCU_BYTES = 4 * a.accuStride;
  // (name, value, bytes a mixer: see threads/split.ts)
  const kernel = (solver as unknown as WasmSolver).bind(
    'gatherPose',
    [
      ['rows', a.rows.byteOffset, ROW_BYTES],
      ['nMixers', 0, N_ARGUMENT],
      ['accu', a.accu.byteOffset, ACCU_BYTES],
      ['accuStride', a.accuStride, 0],
      ['elements', a.elements.byteOffset, 0],
      ['seen', a.seen.byteOffset, 0],
      ['active', a.active.byteOffset, 0],
      ['blocks', a.blocks.byteOffset, 0],
      ['positions', 0, 0],
      ['rotations', 0, 0],
      ['scales', 0, 0],
      ['f32', f32 ? 1 : 0, 0],
      ['missing', a.missing.byteOffset, 0],
      ['flag', a.flag.byteOffset, 0],
      ['copied', 0, 0],
    ],
    { minChunk: MIN_CHUNK },
  );
  const [rows, accu, positions, rotations, scales, copiedArgument] = (
    ['rows', 'accu', 'positions', 'rotations', 'scales', 'copied'] as const
  ).map((name) => kernel.index(name)) as [number, number, number, number, number, number];
  return (to, first, count, copied) => {
    kernel.args[copiedArgument] = copied ? 1 : 0;
    kernel.args[rows] = a.rows.byteOffset + ROW_BYTES * first;
    kernel.args[accu] = a.accu.byteOffset + ACCU_BYTES * first;
    kernel.args[positions] = to.positions.byteOffset;
    kernel.args[rotations] = to.rotations.byteOffset;
    kernel.args[scales] = to.scales === null ? 0 : to.scales.byteOffset;
    kernel.run(count);
  };
}
