/**
 * Prepared calls on the wasm backends (src/base/prepare.ts): the steps call the kernel export
 * directly with pointers computed at prepare. Only for arrays in the solver's memory; with
 * others (the copy path) the caller falls back to the ordinary kernel run at every step.
 */
import type { Kernel, Operand } from '../../core/contract.js';
import type { Param, SpringMode } from '../../core/types.js';
import type { PreparedRun } from '../../base/prepare.js';
import type { KernelExports } from '../../core/kernel-exports.js';
import { contractAdvances } from './threads/split.js';

/** What these functions need of a WasmSolver. */
interface Host {
  readonly exports: KernelExports;
  splits(name: string, n: number): boolean;
  unsplitKernel(name: string): ((...args: number[]) => unknown) | undefined;
  callKernel(name: string, args: number[], n: number, advances: readonly number[]): void;
  owns(array: Float32Array): boolean;
  alloc(length: number): Float32Array;
  free(array: Float32Array): void;
}

/** A parameter as (pointer, stride): per-element (stride 1) or a number in a one-float array of its own (stride 0). */
function pointerOf(host: Host, p: Param, held: Float32Array[]): [number, number] {
  return typeof p === 'number' ? [cellOf(host, p, held), 0] : [p.byteOffset, 1];
}

/** A number in a one-float array of its own (kept in `held` until dispose); its pointer. */
function cellOf(host: Host, value: number, held: Float32Array[]): number {
  const cell = host.alloc(1);
  cell[0] = value;
  held.push(cell);
  return cell.byteOffset;
}

/**
 * A core spring (x, v, g, q, a, b checked; a, b parameter copies or numbers). With per-element
 * parameters the coefficients are kept while dt stays the same: a step whose dt equals the
 * previous step's computes them and keeps them (springPerElement with `coef`), the following
 * steps with that dt apply them (springApplyKept, the same bits); a step with another dt
 * computes them without keeping. Null when a state array is outside the solver's memory.
 */
export function keptSpring(
  host: Host,
  mode: SpringMode,
  x: Float32Array,
  v: Float32Array,
  g: Float32Array | null,
  q: Float32Array | null,
  a: Param,
  b: Param,
): PreparedRun | null {
  if (!host.owns(x) || !host.owns(v) || (g && !host.owns(g)) || (q && !host.owns(q))) return null;
  const px = x.byteOffset;
  const pv = v.byteOffset;
  const pg = g ? g.byteOffset : 0;
  const pq = q ? q.byteOffset : 0;
  const n = x.length;
  if (typeof a === 'number' && typeof b === 'number') {
    return { run: (dt) => host.exports.springUniform(px, pv, pg, pq, n, mode, a, b, dt), dispose() {} };
  }
  const held: Float32Array[] = [];
  const [pa, sa] = pointerOf(host, a, held);
  const [pb, sb] = pointerOf(host, b, held);
  const coefficients = host.alloc(host.exports.keptCoefficientBytes(n) / 4);
  held.push(coefficients);
  const pc = coefficients.byteOffset;
  let keptDt = NaN;
  let lastDt = NaN;
  return {
    run(dt) {
      const k = host.exports;
      if (dt === keptDt) k.springApplyKept(px, pv, pg, pq, n, mode, pa, sa, pb, sb, dt, pc);
      else if (dt === lastDt) {
        // kept only when no block needed float64 coefficients (then nothing is kept: every step computes)
        if (k.springPerElement(px, pv, pg, pq, n, mode, pa, sa, pb, sb, dt, pc) === 0) keptDt = dt;
      } else k.springPerElement(px, pv, pg, pq, n, mode, pa, sa, pb, sb, dt, 0);
      lastDt = dt;
    },
    dispose() {
      for (const cell of held) host.free(cell);
    },
  };
}

/**
 * A kernel export's arguments for arrays in the solver's memory: (pointer per operand (0 for none),
 * n, (pointer, stride) per parameter, scalars…). A number parameter is broadcast (stride 0) from
 * the float `numberPointer` returns for it.
 */
export function kernelArguments(
  operands: Operand[],
  n: number,
  params: Param[],
  scalars: number[],
  numberPointer: (value: number, slot: number) => number,
): number[] {
  const args: number[] = [];
  for (const o of operands) args.push(o.array ? o.array.byteOffset : 0);
  args.push(n);
  for (let slot = 0; slot < params.length; slot++) {
    const p = params[slot]!;
    if (typeof p === 'number') args.push(numberPointer(p, slot), 0);
    else args.push(p.byteOffset, 1);
  }
  for (const value of scalars) args.push(value);
  return args;
}

/**
 * A captured kernel call (see prepare.ts) as one direct call of the export with its arguments
 * laid out once: (pointer per operand…, n, (pointer, stride) per param…, scalars…); a step sets
 * the dt scalar. Null when an array is outside the solver's memory.
 */
export function replayKernel(
  host: Host,
  kernel: Kernel,
  n: number,
  operands: Operand[],
  params: Param[],
  scalars: number[],
  hasDt: boolean,
): PreparedRun | null {
  if (operands.some((o) => o.array !== null && !host.owns(o.array))) return null;
  if (params.some((p) => typeof p !== 'number' && !host.owns(p))) return null;
  const fn = host.unsplitKernel(kernel.wasm);
  if (fn === undefined) throw new Error(`internal: the wasm build has no kernel ${kernel.wasm}`);
  const held: Float32Array[] = [];
  const args = kernelArguments(operands, n, params, scalars, (value) => cellOf(host, value, held));
  const dtSlot = args.length - scalars.length;
  const dispose = () => {
    for (const cell of held) host.free(cell);
  };
  // (n is fixed: a call too small to split calls the export itself, as on one thread)
  if (!host.splits(kernel.wasm, n)) {
    return {
      run(dt) {
        if (hasDt) args[dtSlot] = dt;
        fn.apply(null, args);
      },
      dispose,
    };
  }
  const advances = contractAdvances(operands, params.length, scalars.length);
  return {
    run(dt) {
      if (hasDt) args[dtSlot] = dt;
      host.callKernel(kernel.wasm, args, n, advances);
    },
    dispose,
  };
}
