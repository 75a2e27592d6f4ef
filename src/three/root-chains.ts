/**
 * The matrices a SkeletonBatch's root bones hang from. For each mesh, its root parent (the object
 * the root bones hang from) and the objects above it that belong to this mesh alone, up to the
 * same number of levels for every mesh, are composed in the skeleton kernel from their position,
 * quaternion and scale, read at each update (the root chain: src/reference/skeleton.ts). The object
 * above them (the scene, a group the crowd shares: the top) and its ancestors get their world
 * matrices computed once each, as three's `scene.updateMatrixWorld()` will compute them (without
 * writing them: three does at its traversal), and the top's tops the chain. The root matrices then equal those of the renderer's `scene.updateMatrixWorld()`, without
 * its matrix updates of a few objects per mesh (docs/DECISIONS.md, "Skeleton batches").
 * @internal
 */
import { Matrix4, type Object3D } from 'three';
import type { SolverBase } from '../api/solver.js';
import { firstNonFinite, float64Array } from '../api/skeleton-kernel.js';
import type { SkeletonArrays } from '../reference/skeleton.js';
import type { OwnedArrays } from '../stateful/owned-arrays.js';

/** How the root matrices are computed, for the scene graph as it was when planned. */
interface Plan {
  /** The objects a mesh's chain has: its root parent and the levels − 1 objects above it. */
  levels: number;
  /** Per mesh, the object above its levels, whose matrixWorld three brings up to date (null: none). */
  tops: (Object3D | null)[];
  /** The tops and their ancestors, each once, parents first, and the index of each one's parent there (−1: none). */
  above: Object3D[];
  aboveParents: number[];
  /** Per mesh, its top's index there (−1: none). */
  topIndices: number[];
  /** No mesh has a top: the first matrix of each chain is its own world matrix. */
  parentless: boolean;
}

/** The root-chain fields of a SkeletonArrays, which read() writes. */
type ChainFields = Pick<SkeletonArrays, 'roots' | 'chain' | 'levels' | 'parentless'>;

export class RootChains {
  /** Each mesh's top's matrixWorld (16 f64 a mesh; the identity where it has none). */
  readonly roots: Float64Array;
  private plan: Plan;
  private chain: Float32Array | null = null;
  /** Per object above the chains, whether its descendants must recompute their matrixWorld (three's `force`). */
  private readonly forces: boolean[] = [];
  /** Per object above the chains, the world matrix three's traversal will give it; and a scratch local matrix. */
  private readonly worlds: Matrix4[] = [];
  private readonly local = new Matrix4();

  constructor(
    private readonly solver: SolverBase,
    private readonly owned: OwnedArrays,
    /** Per mesh, the object its root bones hang from (null: none). */
    private readonly rootParents: readonly (Object3D | null)[],
    /** How messages name an object above mesh m: its name, or its path from the mesh (`meshes[2].parent`). */
    private readonly objectName: (m: number, object: Object3D) => string,
  ) {
    this.roots = float64Array((length) => owned.alloc(length), 16 * rootParents.length);
    this.plan = planChains(rootParents);
  }

  /**
   * Reads the chains' transforms into `into.chain` and the tops' matrixWorld (brought up to date)
   * into the roots, planning again when the scene graph above the meshes has changed; checks them
   * finite (and the tops affine), or throws a RangeError naming the mesh and the object.
   */
  read(method: string, into: ChainFields): void {
    if (!this.gather(into) || !this.aboveHolds()) {
      this.plan = planChains(this.rootParents);
      if (!this.gather(into) || !this.aboveHolds()) throw new Error('internal: a root chain planned but not read');
    }
    const { tops, parentless } = this.plan;
    if (!parentless) {
      this.updateAbove();
      const roots = this.roots;
      for (let m = 0; m < tops.length; m++) {
        const top = tops[m];
        if (top) roots.set(this.worlds[this.plan.topIndices[m]!]!.elements, 16 * m);
        else for (let i = 0; i < 16; i++) roots[16 * m + i] = i % 5 === 0 ? 1 : 0; // (a mesh with no top among meshes with one)
      }
    }
    this.check(method, into);
  }

  /**
   * The chains' transforms into `into` (laid out again for a new plan), walking up from each root
   * parent; false if the scene graph no longer matches the plan (an object of a chain that three
   * does not compose, or another top above it).
   */
  private gather(into: ChainFields): boolean {
    const { levels, tops, parentless } = this.plan;
    const length = 10 * levels * tops.length;
    if ((into.chain?.length ?? 0) !== length || into.levels !== levels) this.layOut(into, length);
    into.levels = levels;
    into.parentless = parentless;
    const chain = into.chain;
    for (let m = 0; m < tops.length; m++) {
      let o = this.rootParents[m] ?? null;
      for (let l = levels - 1; l >= 0; l--) {
        if (o === null || !composable(o)) return false;
        const i = 10 * (m * levels + l);
        const { position: t, quaternion: q, scale: s } = o;
        chain![i] = t.x;
        chain![i + 1] = t.y;
        chain![i + 2] = t.z;
        chain![i + 3] = q.x;
        chain![i + 4] = q.y;
        chain![i + 5] = q.z;
        chain![i + 6] = q.w;
        chain![i + 7] = s.x;
        chain![i + 8] = s.y;
        chain![i + 9] = s.z;
        o = o.parent;
      }
      if (o !== tops[m]) return false;
    }
    return true;
  }

  /** Whether the objects above the chains still hang from the same parents as when planned. */
  private aboveHolds(): boolean {
    const { above, aboveParents } = this.plan;
    for (let i = 0; i < above.length; i++) {
      const p = aboveParents[i]!;
      if (above[i]!.parent !== (p < 0 ? null : above[p])) return false;
    }
    return true;
  }

  /**
   * The world matrices the renderer's `scene.updateMatrixWorld()` will give the objects above the
   * chains, parents first, each as three's Object3D.updateMatrixWorld(force) computes it (its matrix
   * composed when matrixAutoUpdate, with the `force` its parent passes down; not
   * updateWorldMatrix(true, false), which passes none: an object whose matrix is set by hand would
   * keep its matrixWorld when its parent moves), into `worlds`, without writing the objects: three
   * writes them at its traversal, and until then an app reading them (an `updateMatrixWorld()` of a
   * subtree below) sees the values of three's last traversal, as without a SkeletonBatch.
   */
  private updateAbove(): void {
    const { above, aboveParents } = this.plan;
    const forces = this.forces;
    const worlds = this.worlds;
    while (worlds.length < above.length) worlds.push(new Matrix4());
    const local = this.local;
    for (let i = 0; i < above.length; i++) {
      const o = above[i]!;
      const p = aboveParents[i]!;
      const world = worlds[i]!;
      let force = p >= 0 && forces[p]!;
      let matrix = o.matrix;
      if (o.matrixAutoUpdate) {
        // three's updateMatrix (which also flags matrixWorldNeedsUpdate), pivot included
        matrix = local.compose(o.position, o.quaternion, o.scale);
        const pivot = (o as { pivot?: { x: number; y: number; z: number } | null }).pivot;
        if (pivot != null) {
          const px = pivot.x,
            py = pivot.y,
            pz = pivot.z;
          const te = matrix.elements;
          te[12] += px - te[0]! * px - te[4]! * py - te[8]! * pz;
          te[13] += py - te[1]! * px - te[5]! * py - te[9]! * pz;
          te[14] += pz - te[2]! * px - te[6]! * py - te[10]! * pz;
        }
      }
      if (o.matrixAutoUpdate || o.matrixWorldNeedsUpdate || force) {
        if (!o.matrixWorldAutoUpdate) world.copy(o.matrixWorld);
        else if (o.parent === null) world.copy(matrix);
        else world.multiplyMatrices(worlds[p]!, matrix);
        force = true;
      } else {
        world.copy(o.matrixWorld);
      }
      forces[i] = force;
    }
  }

  /** A chain array of `length` float64 (none for 0) in solver memory, in place of the last one. */
  private layOut(into: ChainFields, length: number): void {
    if (this.chain) this.owned.free(this.chain);
    this.chain = length > 0 ? this.owned.alloc(2 * length) : null;
    into.chain = this.chain ? new Float64Array(this.chain.buffer, this.chain.byteOffset, length) : null;
  }

  /** Finite chains, finite and affine tops, or a RangeError naming the mesh and the object. */
  private check(method: string, into: ChainFields): void {
    const { levels, tops } = this.plan;
    const bad = into.chain ? firstNonFinite(this.solver, into.chain) : -1;
    if (bad >= 0) {
      const m = Math.floor(bad / (10 * levels));
      let object = this.rootParents[m]!;
      for (let l = levels - 1; l > Math.floor(bad / 10) % levels; l--) object = object.parent!;
      const field = ['position', 'position', 'position', 'quaternion', 'quaternion', 'quaternion', 'quaternion', 'scale', 'scale', 'scale'][
        bad % 10
      ];
      throw new RangeError(
        `${method}: meshes[${m}]'s bones hang below ${this.objectName(m, object)}, whose ${field} has ` +
          `${into.chain![bad]}; it must be finite`,
      );
    }
    if (this.plan.parentless) return;
    const roots = this.roots;
    const badRoot = firstNonFinite(this.solver, roots);
    let m = badRoot >= 0 ? Math.floor(badRoot / 16) : -1;
    for (let i = 0; i < tops.length && m < 0; i++) {
      const r = 16 * i;
      if (roots[r + 3] !== 0 || roots[r + 7] !== 0 || roots[r + 11] !== 0 || roots[r + 15] !== 1) m = i;
    }
    if (m >= 0) {
      throw new RangeError(
        `${method}: meshes[${m}]'s root bones hang from ${tops[m] ? this.objectName(m, tops[m]!) : 'nothing'}, ` +
          `whose matrixWorld (${Array.from(roots.subarray(16 * m, 16 * m + 16)).join(' ')}) is not finite and affine (last row 0 0 0 1)`,
      );
    }
  }
}

/**
 * Whether the kernel computes an object's matrices as three would: three composes its matrix from
 * position, quaternion and scale (matrixAutoUpdate, no pivot) and its matrixWorld from its
 * parent's (matrixWorldAutoUpdate).
 */
function composable(o: Object3D): boolean {
  return o.matrixAutoUpdate && o.matrixWorldAutoUpdate && (o as { pivot?: unknown }).pivot == null;
}

/**
 * The plan for the scene graph as it is: each mesh's levels are the composable objects from its
 * root parent up that no other mesh's chain passes through, cut to the fewest any mesh has.
 */
function planChains(rootParents: readonly (Object3D | null)[]): Plan {
  const uses = new Map<Object3D, number>();
  for (const rootParent of rootParents) for (let o = rootParent; o !== null; o = o.parent) uses.set(o, (uses.get(o) ?? 0) + 1);
  const own = (o: Object3D | null): o is Object3D => o !== null && uses.get(o) === 1 && composable(o);
  let levels = Infinity;
  for (const rootParent of rootParents) {
    let n = 0;
    for (let o = rootParent; own(o); o = o.parent) n++;
    levels = Math.min(levels, n);
  }
  const tops = rootParents.map((rootParent) => {
    let o = rootParent;
    for (let l = 0; l < levels; l++) o = o!.parent;
    return o;
  });
  // the tops and their ancestors, parents first
  const index = new Map<Object3D, number>();
  const above: Object3D[] = [];
  const aboveParents: number[] = [];
  const list = (o: Object3D): number => {
    const listed = index.get(o);
    if (listed !== undefined) return listed;
    const parent = o.parent === null ? -1 : list(o.parent);
    index.set(o, above.length);
    above.push(o);
    aboveParents.push(parent);
    return above.length - 1;
  };
  for (const top of tops) if (top !== null) list(top);
  const topIndices = tops.map((top) => (top === null ? -1 : index.get(top)!));
  return { levels, tops, above, aboveParents, topIndices, parentless: above.length === 0 };
}
