/**
 * The crowd in spans: runs of rows of the layout's avatar table (a row per manager) that
 * SpringBones.update takes one after the other, each from its reads to its writes (poses, the
 * `before` pass, the kernel, the bones, the `after` pass), as three-vrm's managers run one after
 * the other; and the objects and kernel arrays of a span are still in cache when its bones are
 * written (docs/DECISIONS.md, "Spring bones in spans"). A span gathers consecutive managers only
 * while none writes an object another of the span reads or writes (nor reads another's joint): it
 * then reads and writes what those managers run one by one would, and its rows can run on several
 * threads at once.
 * @internal
 */
import type { Object3D } from 'three';
import {
  AVATAR,
  A_JOINTS,
  A_SLOTS,
  R_JOINT,
  SETUP,
  S_CENTER,
  S_CHILD_REF,
  S_PARENT,
  S_SAME_BONE,
} from '../reference/spring-bone-layout.js';
import type { Layout } from './layout.js';
import type { PassEntry } from './matrix-pass.js';

/**
 * The joints a span gathers at least (whole avatars): its objects and arrays stay in cache from its
 * reads to its writes (256: measured, docs/DECISIONS.md). Tests set it to 1, a span an avatar unless
 * joined, to run the spans on small crowds.
 */
export const spanJoints = { min: 256 };

/** A run of whole avatars, and its ranges of everything the update goes through. */
export interface Span {
  /** Its first avatar (row of the avatar table) and how many. */
  avatar: number;
  avatars: number;
  /** Its joints [from, to), its ext slots, its entries of the (reordered) `before` pass, of the `after` pass, of liveChildren. */
  joints: [number, number];
  slots: [number, number];
  before: [number, number];
  after: [number, number];
  live: [number, number];
  /**
   * Whether the span's rows touch nothing that the span before it writes, and write nothing it
   * touches: its reads may then come before the writes of the span before it (SpringBones reads
   * it while the kernel steps that span in the background, on a threaded solver).
   */
  apart: boolean;
}

/**
 * `layout` in spans of at least `minJoints` joints where the avatars allow (the last span may be
 * smaller; Infinity: one span), and the `before` pass reordered span by span (`beforeIndex`: the
 * new index of each entry of `layout.before`).
 */
export function spansOf(layout: Layout, minJoints: number): { spans: Span[]; before: PassEntry[]; beforeIndex: Int32Array } {
  const table = layout.avatars;
  const avatarCount = table.length / AVATAR;
  const jointAvatar = new Int32Array(layout.joints.length);
  const slotAvatar = new Int32Array(layout.slots.length);
  for (let a = 0; a < avatarCount; a++) {
    const r = AVATAR * a;
    jointAvatar.fill(a, table[r + A_JOINTS]!, table[r + A_JOINTS + 1]!);
    slotAvatar.fill(a, table[r + A_SLOTS]!, table[r + A_SLOTS + 1]!);
  }
  // the row (manager) of each entry of the before pass, and of each object of the after pass
  const before = layout.before;
  const entryAvatar = Int32Array.from(layout.beforeAt, (j) => jointAvatar[j]!);
  const afterAvatar = new Int32Array(layout.after.length);
  layout.after.forEach(({ parent }, e) => {
    afterAvatar[e] = parent >= 0 ? afterAvatar[parent]! : jointAvatar[-2 - parent]!;
  });

  // what each row reads and writes of three's objects (true: writes)
  const touches = Array.from({ length: avatarCount }, () => new Map<Object3D, boolean>());
  const touch = (object: Object3D, avatar: number, writes: boolean): void => {
    const list = touches[avatar]!;
    list.set(object, writes || list.get(object) === true);
  };
  // A pass entry above every joint bone (the scene, a group of avatars, a prop) gets the same matrices
  // whichever row updates it first: no row changes its transform or its parents'. Every manager's
  // pass climbs to the scene as three-vrm's does, so counted as a write, it would make every manager a
  // span of its own. Only joint bones and what is below them change during an update.
  const jointBones = new Set(layout.joints.map(({ joint }) => joint.bone));
  const moves = (object: Object3D): boolean => {
    for (let o: Object3D | null = object; o !== null; o = o.parent) if (jointBones.has(o)) return true;
    return false;
  };
  before.forEach(({ object, mode }, e) => touch(object, entryAvatar[e]!, mode === 'update' && moves(object)));
  layout.after.forEach(({ object }, e) => touch(object, afterAvatar[e]!, true));
  layout.joints.forEach(({ joint }, j) => touch(joint.bone, jointAvatar[j]!, true));
  layout.slots.forEach((slot, s) => {
    if (slot.kind === 'local') touch(slot.object, slotAvatar[s]!, true); // updateMatrix
  });
  for (const { index, child } of layout.liveChildren) touch(child, jointAvatar[index]!, false);
  // a joint's parent, child or center computed from another joint's matrix (a joint of another row: its bone, read)
  layout.joints.forEach((_, j) => {
    for (const at of [S_PARENT, S_CHILD_REF, S_CENTER, S_SAME_BONE]) {
      const k = at === S_SAME_BONE ? layout.setup[SETUP * j + at]! : layout.setup[SETUP * j + at + R_JOINT]!;
      if (k >= 0) touch(layout.joints[k]!.joint.bone, jointAvatar[j]!, false);
    }
  });

  // spans: consecutive rows up to minJoints joints; a row that writes an object a row of the span touches, or touches
  // one that a row of the span writes, starts a new span (it must run after the rows before it, as three-vrm's managers)
  const spanOf = new Int32Array(avatarCount);
  const starts: number[] = [];
  let joints = 0;
  let inSpan = new Map<Object3D, boolean>();
  /** Each span's objects (true: written), as the spans close. */
  const spanTouches: Map<Object3D, boolean>[] = [];
  const conflicts = (touched: ReadonlyMap<Object3D, boolean>, mine: ReadonlyMap<Object3D, boolean>): boolean => {
    for (const [object, writes] of mine) {
      const theirs = touched.get(object);
      if (theirs !== undefined && (theirs || writes)) return true;
    }
    return false;
  };
  for (let a = 0; a < avatarCount; a++) {
    const mine = touches[a]!;
    if (a === 0 || conflicts(inSpan, mine) || joints >= minJoints) {
      starts.push(a);
      joints = 0;
      inSpan = new Map();
      spanTouches.push(inSpan);
    }
    for (const [object, writes] of mine) inSpan.set(object, writes || inSpan.get(object) === true);
    spanOf[a] = starts.length - 1;
    joints += table[AVATAR * a + A_JOINTS + 1]! - table[AVATAR * a + A_JOINTS]!;
  }

  // the before pass span by span (in pass order within a span: a parent stays before its children)
  const order = before.map((_, e) => e).sort((x, y) => spanOf[entryAvatar[x]!]! - spanOf[entryAvatar[y]!]! || x - y);
  const beforeIndex = new Int32Array(before.length);
  order.forEach((e, i) => {
    beforeIndex[e] = i;
  });
  const reordered = order.map((e): PassEntry => {
    const entry = before[e]!;
    return { ...entry, parent: entry.parent >= 0 ? beforeIndex[entry.parent]! : entry.parent };
  });

  /** Each span's range of a list whose items are in span order (`spanAt`: the span of item i). */
  const ranges = (count: number, spanAt: (i: number) => number): [number, number][] => {
    const counts = new Int32Array(starts.length);
    for (let i = 0; i < count; i++) {
      if (i > 0 && spanAt(i) < spanAt(i - 1)) throw new Error('spansOf: a list out of avatar order'); // never, by construction
      counts[spanAt(i)]++;
    }
    let at = 0;
    return starts.map((_, s) => {
      const from = at;
      at += counts[s]!;
      return [from, at];
    });
  };
  const beforeRanges = ranges(before.length, (i) => spanOf[entryAvatar[order[i]!]!]!);
  const afterRanges = ranges(layout.after.length, (i) => spanOf[afterAvatar[i]!]!);
  const liveRanges = ranges(layout.liveChildren.length, (i) => spanOf[jointAvatar[layout.liveChildren[i]!.index]!]!);
  const spans = starts.map((avatar, s): Span => {
    const end = starts[s + 1] ?? avatarCount;
    const first = AVATAR * avatar,
      last = AVATAR * (end - 1);
    return {
      avatar,
      avatars: end - avatar,
      joints: [table[first + A_JOINTS]!, table[last + A_JOINTS + 1]!],
      slots: [table[first + A_SLOTS]!, table[last + A_SLOTS + 1]!],
      before: beforeRanges[s]!,
      after: afterRanges[s]!,
      live: liveRanges[s]!,
      apart: s > 0 && !conflicts(spanTouches[s - 1]!, spanTouches[s]!),
    };
  });
  return { spans, before: reordered, beforeIndex };
}
