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
  const ROW_BYTES = 4 * ROW_INTS;
  // (name, value, bytes a mixer: see threads/split.ts)
  const kernel = (solver as unknown as WasmSolver).bind(
    'sampleMixers',
    [
      ['rows', a.rows.byteOffset, ROW_BYTES],
      ['nMixers', 0, N_ARGUMENT],
      ['actionInts', a.actionInts.byteOffset, 0],
      ['actionFloats', a.actionFloats.byteOffset, 0],
      ['recordInts', a.recordInts.byteOffset, 0],
      ['recordFloats', a.recordFloats.byteOffset, 0],
      ['keys', a.keys.byteOffset, 0],
      ['blocks', a.blocks.byteOffset, 0],
      ['applyInts', a.applyInts.byteOffset, 0],
      ['changed', a.changed.byteOffset, 0],
      ['active', a.active.byteOffset, 0],
      ['positions', 0, 0], // a.output's, set at each call
      ['rotations', 0, 0],
      ['scales', 0, 0],
      ['outF32', 0, 0],
      ['eulerFlags', 0, 0], // a.eulerFlags' when a.angles, set at each call
      ['eulers', a.eulers.byteOffset, 0],
    ],
    { minChunk: MIN_CHUNK },
  );
  const [rows, positions, rotations, scales, outF32, eulerFlags] = (
    ['rows', 'positions', 'rotations', 'scales', 'outF32', 'eulerFlags'] as const
  ).map((name) => kernel.index(name)) as [number, number, number, number, number, number];
  return (first, count) => {
    const output = a.output;
    kernel.args[rows] = a.rows.byteOffset + ROW_BYTES * first;
    kernel.args[positions] = output === null ? 0 : output.positions.byteOffset;
    kernel.args[rotations] = output === null ? 0 : output.rotations.byteOffset;
    kernel.args[scales] = output?.scales ? output.scales.byteOffset : 0;
    kernel.args[outF32] = output !== null && output.positions instanceof Float32Array ? 1 : 0;
    kernel.args[eulerFlags] = a.angles ? a.eulerFlags.byteOffset : 0;
    kernel.run(count);
  };
}
