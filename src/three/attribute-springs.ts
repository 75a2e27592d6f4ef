/**
 * A BufferAttribute (plain or interleaved) whose items spring toward goals, in place: the
 * attribute's array must be a Float32Array from `solver.alloc` on the wasm backends (any
 * Float32Array on the JS backend), e.g. `new BufferAttribute(solver.alloc(count * 3), 3)` or an
 * InterleavedBuffer over such an array. Each update runs springStrided over (offset, stride, itemSize).
 */
import type { BufferAttribute, InterleavedBufferAttribute } from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { describe } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { prepareSpringStrided, type StridedSpringParams } from '../api/strided.js';
import {
  checkArgumentCount,
  checkFree,
  checkHalflife,
  checkOptions,
  checkSolver,
  checkSpan,
  hold,
  holdSpan,
  release,
  releaseSpan,
  type Span,
} from './checks.js';

/**
 * @group Batched springs
 */
export interface AttributeSpringsOptions {
  /** Seconds for half the distance to the goal to be covered (critical spring). Default 0.25. */
  halflife?: number;
}

/**
 * The items of a BufferAttribute (plain or interleaved) springing toward {@link AttributeSprings.goals}, in place.
 * @example
 * ```ts
 * import { BufferAttribute, BufferGeometry } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { AttributeSprings } from 'spring-solver/three';
 * const solver = await createSolver();
 * const position = new BufferAttribute(solver.alloc(3 * 100), 3); // 100 vertices in solver memory
 * new BufferGeometry().setAttribute('position', position);
 * const springs = new AttributeSprings(solver, position, { halflife: 0.2 }); // halflife in s
 * springs.goals.set([0, 1, 0], 3 * 5); // vertex 5 rises to y = 1
 * springs.update(1 / 60); // dt 1/60 s
 * ```
 * @group Batched springs
 */
export class AttributeSprings {
  /** Goal items, itemSize floats each, packed; initially the attribute's current values. */
  readonly goals: Float32Array;
  /** Velocities, itemSize floats per item, packed. */
  readonly velocities: Float32Array;
  private readonly live: SolverBase;
  private h: number;
  private step: ((params: StridedSpringParams, dt: number) => void) | null = null;
  private disposed = false;
  /** The floats of the attribute's buffer that the springs write (no other springs may write them too). */
  private readonly span: Span;
  private readonly buffer: ArrayBufferLike;

  /**
   * Springs every item of `attribute`, whose array must be solver memory (`solver.alloc`) on the
   * wasm backends; the goals start at the current values, the velocities at 0.
   * @example
   * ```ts
   * import { BufferAttribute } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { AttributeSprings } from 'spring-solver/three';
   * const solver = await createSolver();
   * const springs = new AttributeSprings(solver, new BufferAttribute(solver.alloc(300), 3), { halflife: 0.2 });
   * ```
   */
  constructor(
    private readonly solver: Solver,
    readonly attribute: BufferAttribute | InterleavedBufferAttribute,
    options: AttributeSpringsOptions = {},
  ) {
    const method = 'AttributeSprings';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['solver', 'attribute', 'options']);
    this.live = checkSolver(method, solver);
    if (typeof attribute !== 'object' || attribute === null)
      throw new TypeError(`${method}: attribute must be a BufferAttribute, got ${describe(attribute)}`);
    const interleaved = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute === true;
    const array = interleaved ? (attribute as InterleavedBufferAttribute).data.array : (attribute as BufferAttribute).array;
    if (!(array instanceof Float32Array))
      throw new TypeError(`${method}: the attribute's array must be a Float32Array, got ${describe(array)}`);
    if (attribute.normalized) throw new TypeError(`${method}: a normalized attribute cannot be sprung (its floats are not the values)`);
    const width = attribute.itemSize;
    const count = attribute.count;
    const x = interleaved
      ? { array, offset: (attribute as InterleavedBufferAttribute).offset, stride: (attribute as InterleavedBufferAttribute).data.stride }
      : { array, offset: 0, stride: width };
    const { halflife = 0.25 } = checkOptions(method, options, ['halflife']);
    this.h = checkHalflife(method, 'options.halflife', halflife);
    checkFree(method, 'attribute', attribute);
    // the floats the items take in the array's buffer: shared with no other springs
    const first = array.byteOffset / 4 + x.offset;
    this.span = { first, end: count === 0 ? first : first + (count - 1) * x.stride + width, stride: x.stride, width };
    this.buffer = array.buffer;
    checkSpan(method, "the attribute's items", this.buffer, this.span);
    this.goals = solver.alloc(count * width);
    this.velocities = solver.alloc(count * width);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < width; c++) this.goals[i * width + c] = array[x.offset + i * x.stride + c];
    }
    try {
      // Checks the layout once, and that the attribute's array is usable by this solver.
      this.step = prepareSpringStrided(solver, { x, v: { array: this.velocities }, g: { array: this.goals }, width, count });
    } catch (error) {
      this.dispose();
      throw renamed(error);
    }
    hold([attribute], 'sprung by an AttributeSprings');
    holdSpan(this.buffer, this.span, 'the items an AttributeSprings springs');
  }

  /**
   * Seconds (≥ 0); may be changed between updates. A value that is not a finite number ≥ 0 throws
   * here, and the halflife stays as it was.
   * @example
   * ```ts
   * import type { AttributeSprings } from 'spring-solver/three';
   * declare const springs: AttributeSprings;
   * springs.halflife = 0.5; // s, from the next update
   * ```
   */
  get halflife(): number {
    return this.h;
  }

  set halflife(value: number) {
    const method = 'AttributeSprings.halflife';
    if (this.disposed) throw new TypeError(`${method}: this AttributeSprings has been disposed`);
    this.h = checkHalflife(method, 'halflife', value);
  }

  /**
   * Steps every item by dt (s) toward its goal; marks the attribute for upload.
   * @example
   * ```ts
   * import type { AttributeSprings } from 'spring-solver/three';
   * declare const springs: AttributeSprings;
   * springs.update(1 / 60); // dt 1/60 s; the items move, the attribute is marked for upload
   * ```
   */
  update(dt: number): void {
    const method = 'AttributeSprings.update';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['dt']);
    if (this.disposed) throw new TypeError(`${method}: this AttributeSprings has been disposed`);
    this.live.checkLive(method);
    checkDt(this.solver, method, dt);
    this.step!({ halflife: this.h }, dt);
    const a = this.attribute as BufferAttribute & InterleavedBufferAttribute;
    if (a.isInterleavedBufferAttribute) a.data.needsUpdate = true;
    else a.needsUpdate = true;
  }

  /**
   * Frees the goals and velocities (the attribute's array stays the caller's).
   * @example
   * ```ts
   * import type { AttributeSprings } from 'spring-solver/three';
   * declare const springs: AttributeSprings;
   * springs.dispose(); // frees the goals and velocities
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    release([this.attribute]);
    releaseSpan(this.buffer, this.span);
    if ((this.solver as { isDisposed?: () => boolean }).isDisposed?.()) return;
    this.solver.free(this.goals);
    this.solver.free(this.velocities);
  }
}

/** An error of springStrided's checks as the user's call names it: AttributeSprings and its attribute. */
function renamed(error: unknown): unknown {
  if (!(error instanceof TypeError || error instanceof RangeError) || !error.message.startsWith('springStrided: ')) return error;
  const message = error.message
    .replace('springStrided: ', 'AttributeSprings: ')
    .replaceAll('items.x.', "attribute's ")
    .replaceAll('items.x', 'attribute')
    .replaceAll('items.width', 'attribute.itemSize')
    .replaceAll('items.count', 'attribute.count');
  return new (error.constructor as ErrorConstructor)(message);
}
