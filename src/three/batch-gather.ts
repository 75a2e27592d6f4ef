/**
 * An InertializedMixerGroup's reads of a MixerBatch's pose, as one kernel call
 * (assembly/kernels/pose-gather.ts, reference src/reference/pose-gather.ts): a plan of every
 * transform binding of every mixer whose PropertyMixer the batch's kernel takes (its buffer in
 * solver memory, its in-use flag, where its value goes in the group's input, its original region),
 * made when the batch lays out and kept until it lays out again (its `version`). What the plan does
 * not hold is read by the group's own loop over the bindings, as before: the properties three's own
 * code samples, every binding of a mixer two of whose bindings write one value (their order then
 * decides), and a mixer the batch ran through three's code this update.
 *
 * Per binding, what the group's loop did: in use, the value of the last update; no longer in use,
 * the original value three restored, once it has been in use (`seen`); never in use, nothing. The
 * plan keeps `seen` in solver memory for its bindings (the kernel sets it) and gives it back to the
 * destinations when it is dropped.
 * @internal
 */
import type { SolverBase } from '../api/solver.js';
import { gatherPoseCall } from '../api/pose-gather-kernel.js';
import {
  ELEMENT_INTS,
  GATHER_POSITION,
  GATHER_ROTATION,
  GATHER_SCALE,
  ROW_INTS,
  elementCode,
  type GatherArrays,
  type GatherTargets,
} from '../reference/pose-gather.js';
import { OwnedArrays } from '../stateful/owned-arrays.js';
import { originalRegion, type PropertyMixerLike, type TransformProperty } from './mixer-bindings.js';
import { gatherArrays, type PoseOutputs, type PoseState } from './mixer-pose.js';

/** Where one PropertyMixer's value goes in the group (the group's Destination). */
export interface GatherDestination {
  kind: TransformProperty | null;
  at: number;
  seen: boolean;
  /** Its element in the plan, or −1. */
  g: number;
}

const KIND = { position: GATHER_POSITION, quaternion: GATHER_ROTATION, scale: GATHER_SCALE } as const;

export class BatchGather {
  /** The batch's layout this plan is for. */
  readonly version: number;
  /** The mixers whose bindings the group's own loop reads too (those the plan does not hold). */
  readonly residual: Int32Array;
  /** Per mixer, 1 when the plan holds none of its bindings (the loop reads them all). */
  readonly unplanned: Uint8Array;
  private readonly owned: OwnedArrays;
  private readonly arrays: GatherArrays;
  private readonly call: (to: GatherTargets, first: number, count: number, copied: boolean) => void;
  /** Each element's destination. */
  private readonly destinations: GatherDestination[] = [];

  /**
   * The plan for the batch's state `st`, from each mixer's bindings and their destinations (index
   * for index), their `seen` taken over; the batch's sampler copies the values in use to `output`
   * (the group's input) at each batch.update.
   */
  constructor(
    solver: SolverBase,
    st: PoseState,
    mixers: readonly { bindings: readonly PropertyMixerLike[]; dests: readonly GatherDestination[] }[],
    private readonly outputs: PoseOutputs,
    readonly output: GatherTargets,
  ) {
    this.version = st.version;
    const residual: number[] = [];
    this.unplanned = new Uint8Array(mixers.length);
    // per mixer, the bindings the plan holds (the others: the loop)
    const planned = mixers.map(({ bindings, dests }, m) => {
      const entry = st.entries[m]!;
      const held: [PropertyMixerLike, GatherDestination, number][] = [];
      const places = new Set<number>();
      let rest = false;
      for (let k = 0; k < bindings.length; k++) {
        const d = dests[k]!;
        if (d.kind === null) continue;
        const place = 4 * d.at + KIND[d.kind];
        if (places.has(place)) {
          // two bindings write one value: the last in the mixer's order wins, which only the loop keeps
          this.unplanned[m] = 1;
          residual.push(m);
          return [];
        }
        places.add(place);
        const kk = entry.index.get(bindings[k] as never);
        if (kk === undefined) rest = true;
        else held.push([bindings[k]!, d, kk]);
      }
      if (rest) residual.push(m);
      return held;
    });
    const count = planned.reduce((sum, held) => sum + held.length, 0);
    this.owned = new OwnedArrays(solver);
    const a = gatherArrays(this.owned, st, mixers.length, count);
    const places = new Int32Array(3 * count);
    let e = 0;
    planned.forEach((held, m) => {
      const entry = st.entries[m]!;
      a.rows[ROW_INTS * m] = e;
      a.rows[ROW_INTS * m + 1] = held.length;
      for (const [pm, d, kk] of held) {
        const code = elementCode(KIND[d.kind!], originalRegion(pm));
        a.elements.set([entry.blocks[kk]! + 2, entry.firstApply + kk, d.at, code], ELEMENT_INTS * e);
        places.set([entry.firstApply + kk, d.at, KIND[d.kind!]], 3 * e);
        a.seen[e] = d.seen ? 1 : 0;
        d.g = e;
        this.destinations.push(d);
        e++;
      }
    });
    this.arrays = a;
    this.residual = Int32Array.from(residual);
    this.call = gatherPoseCall(solver, a, true);
    outputs.setOutput(output, places);
  }

  /**
   * Mixers first … first + count − 1: the values the plan holds, into `to` (solver memory, float32);
   * into the output, those in use are there already when the batch's last update wrote them.
   */
  run(to: GatherTargets, first: number, count: number): void {
    this.call(to, first, count, to === this.output && this.outputs.wrote(to));
  }

  /** Whether planned destination d has been in use (d.g ≥ 0). */
  seen(d: GatherDestination): boolean {
    return this.arrays.seen[d.g] === 1;
  }

  /** Planned destination d is in use. */
  markSeen(d: GatherDestination): void {
    this.arrays.seen[d.g] = 1;
  }

  /** The destinations get their `seen` back and leave the plan; the arrays are freed. */
  dispose(): void {
    const seen = this.arrays.seen;
    this.destinations.forEach((d, e) => {
      d.seen = seen[e] === 1;
      d.g = -1;
    });
    this.destinations.length = 0;
    this.owned.release();
  }
}
