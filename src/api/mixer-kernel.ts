/**
 * The per-track half of AnimationMixer.update (assembly/kernels/mixer-sampling.ts; reference
 * src/reference/mixer-sampling.ts) over arrays in a solver's memory, for MixerBatch. The arrays are
 * laid out and checked once by the caller; the returned call checks nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { sampleMixers, type MixerArrays } from '../reference/mixer-sampling.js';

/**
 * The per-track work of `nActions` listed actions, then the properties `firstApply` …
 * `firstApply + nApplies − 1` finished: (nActions, firstApply, nApplies) => void. The apply
 * entries and the changed flags of that range are the ones read and written.
 */
export function sampleMixersCall(solver: Solver, a: MixerArrays): (nActions: number, firstApply: number, nApplies: number) => void {
  if (solver.backend === 'js') {
    return (nActions, firstApply, nApplies) => {
      const applyInts = a.applyInts.subarray(4 * firstApply);
      const changed = a.changed.subarray(firstApply);
      sampleMixers({ ...a, applyInts, changed }, nActions, nApplies);
    };
  }
  const kernel = (solver as unknown as WasmSolver).rawKernels.sampleMixers;
  const actionInts = a.actionInts.byteOffset;
  const actionFloats = a.actionFloats.byteOffset;
  const recordInts = a.recordInts.byteOffset;
  const recordFloats = a.recordFloats.byteOffset;
  const keys = a.keys.byteOffset;
  const blocks = a.blocks.byteOffset;
  const applyInts = a.applyInts.byteOffset;
  const accus = a.accus.byteOffset;
  const changed = a.changed.byteOffset;
  // (4 int32 an apply entry, one int32 flag each)
  return (nActions, firstApply, nApplies) =>
    kernel(
      actionInts,
      actionFloats,
      nActions,
      recordInts,
      recordFloats,
      keys,
      blocks,
      applyInts + 16 * firstApply,
      nApplies,
      accus,
      changed + 4 * firstApply,
    );
}
