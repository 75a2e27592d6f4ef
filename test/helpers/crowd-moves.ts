/**
 * What an app does to where a crowd is, between frames, for the SkeletonBatch app-loop fuzzes: a
 * character's group moved and turned, the world group or the carrier group inside it moved (the
 * world moving alone: the carrier's matrixWorld follows only by three's `force`), a character
 * reparented between the world and the carrier. The ops, their fast-check arbitraries and how they
 * apply are written once here.
 */
import fc from 'fast-check';
import type { Object3D } from 'three';

export type MoveOp =
  | { kind: 'move'; character: number; x: number; turn: number }
  | { kind: 'moveWorld'; x: number; turn: number; carrier: boolean }
  | { kind: 'reparent'; character: number };

/** What the moves act on: each character's group, under the world group or the carrier within it. */
export interface MovedCrowd {
  world: Object3D;
  carrier: Object3D;
  characters: readonly { group: Object3D }[];
}

const x = fc.double({ min: -50, max: 50, noNaN: true });
const turn = fc.double({ min: -1, max: 1, noNaN: true });

/** The weighted arbitraries of the moves (for fc.oneof), `character` drawing the character's index. */
export function moveArbitraries(character: fc.Arbitrary<number>): fc.WeightedArbitrary<MoveOp>[] {
  return [
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), character, x, turn }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('moveWorld' as const), x, turn, carrier: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reparent' as const), character }) },
  ];
}

/** Applies a move to one side of a comparison (character indices taken modulo the crowd's size). */
export function applyMove(s: MovedCrowd, op: MoveOp): void {
  const n = s.characters.length;
  if (op.kind === 'move') {
    const g = s.characters[op.character % n]!.group;
    g.position.x += op.x;
    g.rotation.y += op.turn;
  } else if (op.kind === 'moveWorld') {
    if (op.carrier) {
      s.carrier.rotation.y += op.turn;
      s.carrier.position.x -= op.x;
    } else {
      s.world.position.z += op.x;
      s.world.rotation.y += op.turn;
    }
  } else {
    const g = s.characters[op.character % n]!.group;
    (g.parent === s.carrier ? s.world : s.carrier).add(g);
  }
}
