/**
 * How a call is split (docs/DECISIONS.md, "Threads"): chunks of whole blocks of ALIGN elements,
 * so every element goes through the same path (SIMD block or scalar tail) as in one call over all
 * n, and chunks never write the same 64-byte cache line (an element is at least one float).
 * Element-wise kernels are split by elements; the whole-character kernels (root anchors) by
 * characters, their element; `Inertializer.update`'s pose kernel by bones, each independent.
 */
import type { Operand } from '../../../core/contract.js';

/** Elements per block of a chunk: a multiple of the kernels' 4 lanes (and of the 8 of the unrolled uniform loop). */
export const ALIGN = 16;

/** The advance that marks the element count among a kernel's arguments. */
export const N_ARGUMENT = -1;
/** The advance of a parameter's pointer: its stride (the next argument, floats an element: 0 for a broadcast number) × 4 bytes. */
export const PARAM_POINTER = -2;

/**
 * The advance of a per-thread scratch pointer of `bytes` bytes a thread (at least 16): thread t
 * (the calling thread 0, worker i thread i + 1) gets the pointer + t · bytes, whatever chunk it
 * runs. For kernels whose scratch holds one chunk's intermediate results (the skeletons' parent
 * matrices): the threads run chunks at the same time, one thread's chunks one after the other.
 */
export function perThread(bytes: number): number {
  return -bytes;
}
/** Whether an advance is a per-thread scratch (perThread): every other advance is ≥ −2. */
export function isPerThread(advance: number): boolean {
  return advance <= -16;
}

/** Chunks per thread: more than one, so that a thread that starts late leaves its work to the others. */
export const CHUNKS_PER_THREAD = 4;
/** The smallest chunk: a call into wasm and its arguments cost about 0.1 µs, a block of 256 elements 0.1–10 µs. */
export const MIN_CHUNK = 256;

/**
 * The elements of each chunk of n over `threads` threads: whole blocks of `align` elements (ALIGN,
 * or 1 for a kernel whose elements run alone, as the spring bones' avatars), the last chunk the
 * remainder, at least `minChunk` (MIN_CHUNK, or less for a kernel whose element costs microseconds).
 */
export function chunkOf(n: number, threads: number, minChunk = MIN_CHUNK, align = ALIGN): number {
  return Math.max(minChunk, Math.ceil(n / (threads * CHUNKS_PER_THREAD * align)) * align);
}

/**
 * Writes the arguments of the chunk [start, start + count) into `into` from `offset`: pointers
 * (a non-zero advance, in bytes per element) moved by start elements, pointer 0 (no array) kept,
 * the element count replaced by count, numbers as they are. A parameter's pointer moves by its
 * stride (the argument after it) × 4 bytes an element: a broadcast one (stride 0) stays. A
 * per-thread scratch is the one of `thread`.
 */
export function shiftedArguments(
  args: readonly number[],
  advances: readonly number[],
  start: number,
  count: number,
  into: { [index: number]: number },
  offset: number,
  thread = 0,
): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const advance = advances[i]!;
    if (advance === N_ARGUMENT) into[offset + i] = count;
    else if (advance === PARAM_POINTER) into[offset + i] = a + start * 4 * args[i + 1]!;
    else if (isPerThread(advance)) into[offset + i] = a - thread * advance;
    else into[offset + i] = advance === 0 || a === 0 ? a : a + start * advance;
  }
}

/**
 * The advances of a contract kernel's arguments (see `Kernel` in src/core/contract.ts): a pointer
 * per operand (width floats an element), n, a (pointer, stride) pair per parameter (stride
 * floats an element: 0 for a broadcast number), then the scalars.
 */
export function contractAdvances(operands: readonly Operand[], params: number, scalars: number): number[] {
  const advances: number[] = [];
  for (const o of operands) advances.push(o.width * 4);
  advances.push(N_ARGUMENT);
  for (let i = 0; i < params; i++) advances.push(PARAM_POINTER, 0);
  for (let i = 0; i < scalars; i++) advances.push(0);
  return advances;
}
