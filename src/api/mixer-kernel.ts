/**
 * The per-track half of AnimationMixer.update (assembly/kernels/mixer-sampling.ts; reference
 * src/reference/mixer-sampling.ts) over arrays in a solver's memory, for MixerBatch. The arrays are
 * laid out and checked once by the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { N_ARGUMENT } from '../backends/wasm/threads/split.js';
import { ROW_INTS, sampleMixers, type MixerArrays } from '../reference/mixer-sampling.js';

/**
 * The smallest chunk of a split call, in mixers: one of 40 tracks costs about 2 µs in the kernel
 * (split.ts's MIN_CHUNK is for elements of nanoseconds).
 */
const MIN_CHUNK = 8;

/**
 * The per-track work of mixers `first` … `first + count − 1` (their rows: this frame's actions, their
 * properties): (first, count) => void. On a threaded solver, a call of at least the kernel's split
 * minimum (threads/thresholds.ts) is split by whole mixers: mixers share only the keys, which are
 * read, so the bits do not depend on the split.
 */
export function sampleMixersCall(solver: Solver, a: MixerArrays): (first: number, count: number) => void {
  if (solver.backend === 'js') return (first, count) => sampleMixers(a, first, count);
  const wasm = solver as unknown as WasmSolver;
  const kernel = wasm.rawKernels.sampleMixers as unknown as (...args: number[]) => void;
  const ROW_BYTES = 4 * ROW_INTS;
  // (argument, its bytes per mixer: see threads/split.ts)
  const layout: [number, number][] = [
    [a.rows.byteOffset, ROW_BYTES],
    [0, N_ARGUMENT],
    [a.actionInts.byteOffset, 0],
    [a.actionFloats.byteOffset, 0],
    [a.recordInts.byteOffset, 0],
    [a.recordFloats.byteOffset, 0],
    [a.keys.byteOffset, 0],
    [a.blocks.byteOffset, 0],
    [a.applyInts.byteOffset, 0],
    [a.changed.byteOffset, 0],
  ];
  const args = layout.map(([value]) => value);
  const advances = layout.map(([, advance]) => advance);
  const rows = a.rows.byteOffset;
  if (solver.threads === 1) {
    return (first, count) => {
      args[0] = rows + ROW_BYTES * first;
      args[1] = count;
      kernel.apply(null, args);
    };
  }
  return (first, count) => {
    args[0] = rows + ROW_BYTES * first;
    args[1] = count;
    wasm.callKernel('sampleMixers', kernel, args, count, advances, MIN_CHUNK);
  };
}
