/**
 * The WebAssembly backends (SIMD and scalar builds of the same kernels).
 *
 * Memory is imported, created once with initial = maximum, and never grows, so every view
 * handed out by alloc() stays attached for the solver's life (docs/DECISIONS.md). Layout:
 *   [0, STATIC_BYTES)            the module's static data (checked against heapBase())
 *   [CONSTANTS, +64)             broadcast values for uniform parameters in per-element calls
 *   [SCRATCH, +SLOTS·SLOT_BYTES) chunks of arrays that live outside this memory (copy path)
 *   [arena, arena + memoryBytes) alloc() arrays
 */
import { SolverBase } from '../../base/solver.js';
import { out, input, type Kernel, type Operand } from '../../core/contract.js';
import { checkLength } from '../js-solver.js';
import { describe, firstInvalidJs, type ParamRule } from '../../core/validate.js';
import type { Param, SpringMode } from '../../core/types.js';
import { Allocator } from './allocator.js';
import type { KernelExports } from '../../core/kernel-exports.js';
import { argumentsOf, type ArgumentList, type BoundKernel, type KernelCall } from './kernel-binding.js';
import type { PreparedRun } from '../../base/prepare.js';
import { kernelArguments, keptSpring, replayKernel } from './prepared.js';
import type { Threading } from './threads/threaded.js';
import { contractAdvances, N_ARGUMENT } from './threads/split.js';

const PAGE = 65536;
const STATIC_BYTES = PAGE;
const CONSTANTS = STATIC_BYTES;
const CONSTANT_SLOTS = 16;
const SCRATCH = CONSTANTS + CONSTANT_SLOTS * 4;
/** Arrays one call can copy at once, and floats per copied chunk. */
const SLOTS = 16;
const SLOT_FLOATS = 16384;
const ARENA = SCRATCH + SLOTS * SLOT_FLOATS * 4;

export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/** The solver's memory, fixed: shared (a SharedArrayBuffer) for a threaded solver's workers. */
export function createMemory(memoryBytes: number, shared = false): WebAssembly.Memory {
  const pages = Math.ceil((ARENA + memoryBytes) / PAGE);
  return shared
    ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })
    : new WebAssembly.Memory({ initial: pages, maximum: pages });
}

/** Two ranges of `bytes` bytes at offsets p, r overlap without being the same range. */
function clash(p: number, r: number, bytes: number): boolean {
  return p !== r && overlaps(p, r, bytes);
}

/** True when two ranges of `bytes` bytes at p and r share a byte. */
function overlaps(p: number, r: number, bytes: number): boolean {
  return p < r + bytes && r < p + bytes;
}

export class WasmSolver extends SolverBase {
  private readonly allocator: Allocator;
  private readonly heap: Float32Array;
  /** memory.buffer, looked up once (the memory never grows, so it never changes). @internal */
  readonly memoryBuffer: ArrayBuffer;
  /** The exports as `exports` gives them: on a threaded solver the core springs split themselves (Threading.wrap). */
  private kernels: KernelExports;
  /** The exports unwrapped: what a split call runs per chunk (runKernel, callKernel and bind split through `threading` themselves). */
  private raw: KernelExports;
  /** alloc(0) views, which occupy no block. */
  private readonly empty = new WeakSet<Float32Array>();
  /** The arrays alloc() handed out and free() has not taken back, and those it has (by identity). */
  private readonly live = new WeakSet<Float32Array>();
  private readonly freed = new WeakSet<Float32Array>();

  constructor(
    readonly backend: 'simd' | 'wasm',
    kernels: KernelExports,
    private readonly memory: WebAssembly.Memory,
    /** A threaded solver's workers and split rules; null on one thread. @internal */
    readonly threading: Threading | null = null,
  ) {
    super();
    if (kernels.heapBase() > STATIC_BYTES) throw new Error(`internal: static data (${kernels.heapBase()} bytes) exceeds ${STATIC_BYTES}`);
    this.raw = kernels;
    this.kernels = threading ? threading.wrap(kernels) : kernels;
    this.heap = new Float32Array(memory.buffer);
    this.memoryBuffer = memory.buffer;
    this.allocator = new Allocator(ARENA, memory.buffer.byteLength);
  }

  /**
   * The exports, called directly: by the quick path of the core springs and dampers (which split
   * themselves on a threaded solver), by one-off scans, the benchmark's data-movement floor and the
   * math accuracy tests. A call to split goes through {@link WasmSolver.bind} or callKernel, which
   * take the export by name and split the unwrapped one. @internal
   */
  get exports(): KernelExports {
    this.checkLive('exports');
    return this.kernels;
  }

  alloc(length: number): Float32Array {
    this.checkLive('alloc');
    checkLength(length);
    if (length === 0) {
      const array = new Float32Array(this.memory.buffer, ARENA, 0);
      this.empty.add(array);
      this.live.add(array);
      return array;
    }
    const start = this.allocator.allocate(length);
    if (start < 0) {
      throw new RangeError(
        `alloc: length ${length} (${length * 4} bytes) does not fit: the largest free block is ` +
          `${this.allocator.largestFreeBytes()} bytes of ${this.allocator.freeBytes()} free; ` +
          'create the solver with a larger memoryBytes',
      );
    }
    const array = new Float32Array(this.memory.buffer, start, length);
    array.fill(0);
    this.live.add(array);
    return array;
  }

  free(array: Float32Array): void {
    this.checkLive('free');
    if (!(array instanceof Float32Array)) throw new TypeError(`free: array must be a Float32Array, got ${describe(array)}`);
    // By identity: a freed array whose block a later alloc reused must not free that new array.
    if (this.freed.has(array)) throw new TypeError('free: array was already freed');
    if (!this.live.has(array))
      throw new TypeError('free: array was not allocated by this solver (nor is it a view made by alloc), or was already freed');
    this.live.delete(array);
    this.freed.add(array);
    this.frees++;
    if (this.empty.delete(array)) return;
    this.allocator.release(array.byteOffset);
  }

  isUsable(array: Float32Array): boolean {
    if (array.buffer !== this.memory.buffer || this.live.has(array)) return true;
    return !this.freed.has(array) && (array.length === 0 || this.allocator.inLiveBlock(array.byteOffset, array.byteLength));
  }

  checkUsable(method: string, name: string, array: Float32Array): void {
    if (array.buffer !== this.memory.buffer || this.live.has(array)) return; // the common cases: plain, or from alloc
    if (this.freed.has(array)) throw new TypeError(`${method}: ${name} was freed (solver.free); it must not be used afterwards`);
    // A view the caller made of solver memory (subarray, new Float32Array(buffer, …)): inside one live array.
    if (array.length > 0 && !this.allocator.inLiveBlock(array.byteOffset, array.byteLength)) {
      throw new TypeError(
        `${method}: ${name} is a view of the solver's memory outside every live alloc() array (freed, or never allocated)`,
      );
    }
  }

  override get threads(): number {
    return this.threading ? this.threading.pool.threads : 1;
  }

  /** Terminates the workers of a threaded solver too. */
  override dispose(): void {
    super.dispose();
    this.kernels = undefined as unknown as KernelExports;
    this.raw = undefined as unknown as KernelExports;
    this.threading?.dispose();
  }

  /** Whether a call of kernel export `name` over n elements is split (false on one thread). @internal */
  splits(name: string, n: number): boolean {
    return this.threading?.splits(name, n) ?? false;
  }

  /**
   * Calls kernel export `name` (unwrapped) with `args`, laid out as `advances` says
   * (threads/split.ts): split over the threads when the solver has them and the call is large
   * enough, in chunks of at least `minChunk` elements (split.ts's MIN_CHUNK unless given), whole
   * blocks of `align` (split.ts's ALIGN unless given). @internal
   */
  callKernel(name: string, args: number[], n: number, advances: readonly number[], minChunk?: number, align?: number): void {
    const fn = this.unsplitKernel(name);
    if (fn === undefined) throw new Error(`internal: the wasm build has no kernel ${name}`);
    if (this.threading?.splits(name, n)) this.threading.split(name, fn as (...args: number[]) => number, args, advances, minChunk, align);
    else fn.apply(null, args);
  }

  /** A kernel export by name, unwrapped: what one chunk of a split call runs. @internal */
  unsplitKernel(name: string): ((...args: number[]) => unknown) | undefined {
    this.checkLive('unsplitKernel');
    const fn = (this.raw as unknown as Record<string, unknown>)[name];
    return typeof fn === 'function' ? (fn as (...args: number[]) => unknown) : undefined;
  }

  /**
   * Export `name` bound to its named arguments (kernel-binding.ts): `run(n)` sets its element
   * count (the argument whose advance is N_ARGUMENT) and calls it, on one thread directly, on a threaded solver split by callKernel's rule in chunks of
   * at least `split.minChunk` elements, whole blocks of `split.align`; on a threaded solver,
   * `background` runs the same call on the workers alone while the calling thread goes on. @internal
   */
  bind<K extends BoundKernel>(name: K, list: ArgumentList<K>, split: { minChunk?: number; align?: number } = {}): KernelCall<K> {
    this.checkLive('bind');
    const { args, advances, index } = argumentsOf(name, list);
    const fn = this.unsplitKernel(name)!;
    const { minChunk, align } = split;
    const count = advances.indexOf(N_ARGUMENT);
    if (count < 0) throw new Error(`internal: ${name}'s arguments have no element count (advance N_ARGUMENT)`);
    const run =
      this.threading === null
        ? (n: number) => {
            args[count] = n;
            fn.apply(null, args);
          }
        : (n: number) => {
            args[count] = n;
            this.callKernel(name, args, n, advances, minChunk, align);
          };
    const threading = this.threading;
    const background =
      threading === null
        ? null
        : {
            begin(n: number): void {
              args[count] = n;
              threading.begin(name, args, advances, minChunk, align);
            },
            finish: () => threading.finish(),
          };
    return { args, advances, index, run, background };
  }

  /** True for an array in this solver's memory. @internal */
  owns(array: Float32Array): boolean {
    return array.buffer === this.memoryBuffer;
  }

  protected firstInvalid(array: Float32Array, rule: ParamRule): number {
    if (!this.owns(array)) return firstInvalidJs(array, rule);
    return this.kernels.firstInvalid(array.byteOffset, array.length, rule === 'positive');
  }

  protected runDamper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    const k = this.kernels;
    if (this.owns(x) && this.owns(g) && (typeof halflife === 'number' || this.owns(halflife))) {
      // In place, with no allocation (the quick path of ordinary and prepared calls)
      if (typeof halflife === 'number') k.damperUniform(x.byteOffset, g.byteOffset, x.length, halflife, dt);
      else k.damperVarying(x.byteOffset, g.byteOffset, x.length, halflife.byteOffset, 1, dt);
      return;
    }
    if (typeof halflife === 'number') {
      this.marshal(x.length, [out(x), input(g)], ([px, pg], n) => k.damperUniform(px, pg, n, halflife, dt));
    } else {
      this.marshal(x.length, [out(x), input(g), input(halflife)], ([px, pg, ph], n) => k.damperVarying(px, pg, n, ph, 1, dt));
    }
  }

  protected runSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    p0: Param,
    p1: Param,
    dt: number,
  ): void {
    const k = this.kernels;
    if (
      this.owns(x) &&
      this.owns(v) &&
      (g === null || this.owns(g)) &&
      (q === null || this.owns(q)) &&
      (typeof p0 === 'number' || this.owns(p0)) &&
      (typeof p1 === 'number' || this.owns(p1))
    ) {
      // In place, with no allocation (the quick path of ordinary and prepared calls)
      const px = x.byteOffset,
        pv = v.byteOffset,
        pg = g ? g.byteOffset : 0,
        pq = q ? q.byteOffset : 0,
        n = x.length;
      if (typeof p0 === 'number' && typeof p1 === 'number') k.springUniform(px, pv, pg, pq, n, mode, p0, p1, dt);
      else
        k.springPerElement(
          px,
          pv,
          pg,
          pq,
          n,
          mode,
          this.paramPointer(p0, 0),
          typeof p0 === 'number' ? 0 : 1,
          this.paramPointer(p1, 1),
          typeof p1 === 'number' ? 0 : 1,
          dt,
          0,
        );
      return;
    }
    const state = [out(x), out(v), input(g), input(q)];
    if (typeof p0 === 'number' && typeof p1 === 'number') {
      this.marshal(x.length, state, ([px, pv, pg, pq], n) => k.springUniform(px, pv, pg, pq, n, mode, p0, p1, dt));
      return;
    }
    const [a, aStride] = this.perElement(p0, 0);
    const [b, bStride] = this.perElement(p1, 1);
    this.marshal(x.length, [...state, input(a), input(b)], ([px, pv, pg, pq, pa, pb], n) =>
      k.springPerElement(px, pv, pg, pq, n, mode, pa || this.constantPointer(0), aStride, pb || this.constantPointer(1), bStride, dt, 0),
    );
  }

  runKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[]): void {
    if (params.length > CONSTANT_SLOTS) throw new Error(`internal: ${kernel.wasm} has more than ${CONSTANT_SLOTS} parameters`);
    const fn = (this.raw as unknown as Record<string, (...args: number[]) => void>)[kernel.wasm];
    if (typeof fn !== 'function') throw new Error(`internal: the wasm build has no kernel ${kernel.wasm}`);
    if (this.runInPlace(kernel.wasm, fn, n, operands, params, scalars)) return;
    const perElement = params.map((p, slot) => this.perElement(p, slot));
    this.marshal(n, [...operands, ...perElement.map(([array]) => input(array))], (pointers, count) => {
      const paramArgs = perElement.flatMap(([, stride], i) => [pointers[operands.length + i] || this.constantPointer(i), stride]);
      fn(...pointers.slice(0, operands.length), count, ...paramArgs, ...scalars);
    });
  }

  /**
   * runKernel's common case, every array in this memory: one call with the arguments laid out
   * in a loop (no closures, spreads or per-operand arrays; a stateful object's update is a few
   * µs of such overhead per call). False, running nothing, when an array must be copied.
   */
  private runInPlace(
    name: string,
    fn: (...args: number[]) => void,
    n: number,
    operands: Operand[],
    params: Param[],
    scalars: number[],
  ): boolean {
    const buffer = this.memoryBuffer;
    for (const o of operands) if (o.array !== null && o.array.buffer !== buffer) return false;
    for (const p of params) if (typeof p !== 'number' && p.buffer !== buffer) return false;
    const args = kernelArguments(operands, n, params, scalars, (value, slot) => this.paramPointer(value, slot));
    if (this.threading?.splits(name, n)) {
      this.threading.split(name, fn as (...args: number[]) => number, args, contractAdvances(operands, params.length, scalars.length));
    } else fn.apply(null, args);
    return true;
  }

  /** A per-element parameter as an operand (stride 1), or a number stored as a broadcast constant (stride 0). */
  private perElement(p: Param, slot: number): [Float32Array | null, number] {
    if (typeof p !== 'number') return [p, 1];
    this.heap[this.constantPointer(slot) >> 2] = p;
    return [null, 0];
  }

  /** A per-element parameter's pointer, or a number stored in constant `slot` and its pointer. */
  private paramPointer(p: Param, slot: number): number {
    if (typeof p !== 'number') return p.byteOffset;
    this.heap[this.constantPointer(slot) >> 2] = p;
    return this.constantPointer(slot);
  }

  /** The quick path with one read of each array's buffer and offset (see SolverBase.quickRun). @internal */
  override quickRun(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    a: Param,
    b: Param,
    positive0: boolean,
    dt: number,
  ): boolean {
    const buffer = this.memoryBuffer;
    if (
      x.buffer !== buffer ||
      v.buffer !== buffer ||
      (g !== null && g.buffer !== buffer) ||
      (q !== null && q.buffer !== buffer) ||
      (typeof a !== 'number' && a.buffer !== buffer) ||
      (typeof b !== 'number' && b.buffer !== buffer)
    ) {
      return super.quickRun(mode, x, v, g, q, a, b, positive0, dt);
    }
    // Every array has n floats: two overlap unless their offsets differ by ≥ n·4 bytes, and an
    // input may sit on an output only at the same offset (the identical array).
    // Arrays from alloc() (anything else, a view the caller made, goes through the full checks).
    const live = this.live;
    if (
      !live.has(x) ||
      !live.has(v) ||
      (g !== null && !live.has(g)) ||
      (q !== null && !live.has(q)) ||
      (typeof a !== 'number' && !live.has(a)) ||
      (typeof b !== 'number' && !live.has(b))
    ) {
      return false;
    }
    const n = x.length;
    const bytes = n * 4;
    const px = x.byteOffset,
      pv = v.byteOffset,
      pg = g ? g.byteOffset : 0,
      pq = q ? q.byteOffset : 0;
    if (px < pv + bytes && pv < px + bytes) return false;
    if (g !== null && (clash(pg, px, bytes) || clash(pg, pv, bytes))) return false;
    if (q !== null && (clash(pq, px, bytes) || clash(pq, pv, bytes))) return false;
    // The exports themselves below a threaded solver's smallest split: this call site then sees
    // the same kind of object on every solver (one thread's small calls pay nothing for threads).
    const k = this.threading !== null && n >= this.threading.smallestSplit ? this.kernels : this.raw;
    let pa = 0,
      pb = 0;
    if (typeof a !== 'number') {
      pa = a.byteOffset;
      if (overlaps(pa, px, bytes) || overlaps(pa, pv, bytes) || k.firstInvalid(pa, n, positive0) >= 0) return false;
    }
    if (typeof b !== 'number') {
      pb = b.byteOffset;
      if (overlaps(pb, px, bytes) || overlaps(pb, pv, bytes) || k.firstInvalid(pb, n, false) >= 0) return false;
    }
    if (typeof a === 'number' && typeof b === 'number') {
      k.springUniform(px, pv, pg, pq, n, mode, a, b, dt);
      return true;
    }
    if (typeof a === 'number') {
      this.heap[CONSTANTS >> 2] = a;
      pa = CONSTANTS;
    }
    if (typeof b === 'number') {
      this.heap[(CONSTANTS >> 2) + 1] = b;
      pb = CONSTANTS + 4;
    }
    k.springPerElement(px, pv, pg, pq, n, mode, pa, typeof a === 'number' ? 0 : 1, pb, typeof b === 'number' ? 0 : 1, dt, 0);
    return true;
  }

  override preparedSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    a: Param,
    b: Param,
  ): PreparedRun {
    return keptSpring(this, mode, x, v, g, q, a, b) ?? super.preparedSpring(mode, x, v, g, q, a, b);
  }

  override preparedKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[], hasDt: boolean): PreparedRun {
    return (
      replayKernel(this, kernel, n, operands, params, scalars, hasDt) ?? super.preparedKernel(kernel, n, operands, params, scalars, hasDt)
    );
  }

  private constantPointer(slot: number): number {
    return CONSTANTS + slot * 4;
  }

  /**
   * Runs `kernel` over n elements with a pointer per operand (0 for none). Arrays in this
   * memory are passed in place; others are copied in and out in chunks of scratch slots.
   */
  private marshal(n: number, operands: Operand[], kernel: (pointers: number[], count: number) => void): void {
    const copied = operands.filter((o) => o.array !== null && !this.owns(o.array));
    if (copied.length === 0) {
      kernel(
        operands.map((o) => (o.array ? o.array.byteOffset : 0)),
        n,
      );
      return;
    }
    const widest = Math.max(...copied.map((o) => o.width));
    if (widest > SLOT_FLOATS)
      throw new RangeError(`an element of ${widest} floats exceeds the copy scratch (${SLOT_FLOATS}); pass arrays from alloc()`);
    const chunk = Math.floor(SLOT_FLOATS / widest);
    for (let start = 0; start < n; start += chunk) {
      const count = Math.min(chunk, n - start);
      let slot = 0;
      const slots: number[] = [];
      const pointers = operands.map((o) => {
        if (!o.array) return 0;
        const from = start * o.width;
        if (this.owns(o.array)) return o.array.byteOffset + from * 4;
        const pointer = SCRATCH + slot++ * SLOT_FLOATS * 4;
        this.heap.set(o.array.subarray(from, from + count * o.width), pointer >> 2);
        slots.push(pointer);
        return pointer;
      });
      kernel(pointers, count);
      for (const o of operands) {
        if (!o.array || !o.output || this.owns(o.array)) continue;
        const pointer = pointers[operands.indexOf(o)];
        const from = start * o.width;
        o.array.set(this.heap.subarray(pointer >> 2, (pointer >> 2) + count * o.width), from);
      }
    }
  }
}
