/**
 * Reading three-vrm spring-bone managers into the flat layout of the spring-bone kernel
 * (src/reference/spring-bone-layout.ts): the joints in three-vrm's own order, and for every
 * matrix a joint reads (its bone's parent, its child, its center, its colliders) where that matrix
 * stands at the moment three-vrm reads it: recomputed by three-vrm's pass over the chains'
 * ancestors (the `before` pass here), recomputed after a joint that ran earlier (a reference to
 * that joint and the local matrices below it), or as the app left it (read as the update starts).
 * Everything is checked here, so that a bad setting or an unsupported hierarchy throws before
 * anything is attached or written.
 */
import type { Object3D } from 'three';
import type {
  SpringBoneCollider as VRMSpringBoneCollider,
  SpringBoneColliderShape,
  SpringBoneJoint as VRMSpringBoneJoint,
  SpringBoneManager as VRMSpringBoneManager,
  SpringBoneSettings,
} from './types.js';
import { describe, show } from '../core/validate.js';
import { NO_PARENT, jointParent, type PassEntry, type ParentRef } from './matrix-pass.js';
import {
  AVATAR,
  A_CENTERS,
  A_COLLIDERS,
  A_JOINTS,
  A_SLOTS,
  COLLIDER,
  C_INSIDE,
  C_KIND,
  C_LINK_COUNT,
  C_LINK_SLOT,
  C_LIVE,
  C_OFFSET,
  C_RADIUS,
  C_SLOT,
  C_VECTOR,
  KIND_CAPSULE,
  KIND_PLANE,
  KIND_SPHERE,
  REF,
  SETUP,
  S_AXIS,
  S_CENTER,
  S_CHILD,
  S_CHILD_REF,
  S_COLLIDER_COUNT,
  S_COLLIDER_START,
  S_DRAG,
  S_GRAVITY_DIR,
  S_GRAVITY_POWER,
  S_HAS_CHILD,
  S_HIT_RADIUS,
  S_L0,
  S_OWNED_COUNT,
  S_OWNED_START,
  S_PARENT,
  S_Q0,
  S_SAME_BONE,
  S_STIFFNESS,
} from '../reference/spring-bone-layout.js';

/** What SpringBones reads of a joint besides its public fields: the state three-vrm keeps privately (3.5.x). */
export interface JointInternals {
  _currentTail: { x: number; y: number; z: number };
  _prevTail: { x: number; y: number; z: number };
  _boneAxis: { x: number; y: number; z: number };
  _initialLocalMatrix: { elements: number[] };
  _initialLocalRotation: { x: number; y: number; z: number; w: number };
}

/** The fields of JointInternals, checked present before they are read. */
const INTERNALS = ['_currentTail', '_prevTail', '_boneAxis', '_initialLocalMatrix', '_initialLocalRotation'] as const;

/**
 * An ext slot: an entry of the `before` pass (a matrixWorld it computes or reads, or a collider's
 * colliderMatrix it reads), or the local matrix of one object of a link (below a joint's bone).
 */
export type Slot = { kind: 'pass'; entry: number } | { kind: 'local'; object: Object3D };

/** A joint in kernel order, with what the frame loop needs of it. */
export interface LaidJoint {
  joint: VRMSpringBoneJoint;
  manager: VRMSpringBoneManager;
}

export interface Layout {
  joints: LaidJoint[];
  slots: Slot[];
  colliders: VRMSpringBoneCollider[];
  /** The slots of the centers read as the update starts (inverted once a step). */
  centers: number[];
  /** Per joint (kernel order), SETUP floats. */
  setup: Float64Array;
  /** Collider indices, per joint from its S_COLLIDER_START and its S_OWNED_START. */
  colliderList: number[];
  /** Per collider, COLLIDER floats. */
  colliderSetup: Float64Array;
  /** Per avatar, AVATAR floats: its ranges of joints, slots, colliders and centers (see avatarTable). */
  avatars: Float64Array;
  /** three-vrm's pass over each manager's ancestors (computed), then the objects read as the update starts. */
  before: PassEntry[];
  /** Per `before` entry, a joint of the manager that put it there (its first joint, or the joint that reads it). */
  beforeAt: number[];
  /** Non-joint descendants of joint bones (not below another joint's bone), updated after the joints as three-vrm does. */
  after: PassEntry[];
  /** Joints whose child's matrixWorld stands as the update starts when they read it: its position is read then. */
  liveChildren: { index: number; child: Object3D; elements: number[] }[];
  /** Per joint, 1 where it has no child (its step reads its bone's quaternion: the 7 cm rule). */
  childless: Uint8Array;
  /** The objects of the local slots (links below joint bones). */
  links: Object3D[];
  /** Every object whose parent the layout depends on. */
  hierarchy: Set<Object3D>;
}

/** How messages name manager m: `managers[2]`, or `manager` (the argument of SpringBones.add). */
export type ManagerName = (m: number) => string;

/** The label of joint `k` of manager `m` in an error message: `managers[0]'s joint 3 (bone "hair")`. */
export function jointName(managerName: ManagerName, m: number, k: number, joint: VRMSpringBoneJoint): string {
  const name = (joint.bone as Object3D | undefined)?.name;
  return `${managerName(m)}'s joint ${k}${name ? ` (bone ${JSON.stringify(name)})` : ''}`;
}

function finite(method: string, where: string, name: string, value: unknown): number {
  if (typeof value !== 'number') throw new TypeError(`${method}: ${where}: ${name} must be a number, got ${describe(value)}`);
  if (!Number.isFinite(value)) throw new RangeError(`${method}: ${where}: ${name} is ${show(value)}; it must be finite`);
  return value;
}

function atLeastZero(method: string, where: string, name: string, value: unknown): number {
  const v = finite(method, where, name, value);
  if (v < 0) throw new RangeError(`${method}: ${where}: ${name} is ${show(v)}; it must be ≥ 0`);
  return v;
}

function vector(method: string, where: string, name: string, v: unknown): [number, number, number] {
  if (typeof v !== 'object' || v === null) throw new TypeError(`${method}: ${where}: ${name} must be a Vector3, got ${describe(v)}`);
  const { x, y, z } = v as { x: unknown; y: unknown; z: unknown };
  return [finite(method, where, `${name}.x`, x), finite(method, where, `${name}.y`, y), finite(method, where, `${name}.z`, z)];
}

function isObject3D(value: unknown): value is Object3D {
  return typeof value === 'object' && value !== null && (value as { isObject3D?: boolean }).isObject3D === true;
}

/** The nearest ancestor of `object` (itself included when `self`) that is a joint's bone, or null. */
function jointAncestor(object: Object3D | null, bones: Map<Object3D, number>, self: boolean): Object3D | null {
  let node = self ? object : (object?.parent ?? null);
  while (node !== null && !bones.has(node)) node = node.parent;
  return node;
}

/** The objects from below `top` down to `object` (inclusive), top first. */
function below(top: Object3D, object: Object3D): Object3D[] {
  const path: Object3D[] = [];
  for (let node: Object3D | null = object; node !== top; node = node!.parent) path.unshift(node!);
  return path;
}

/**
 * The layout of every joint of `managers` (method: the name errors start with), in three-vrm's own
 * order (see threeVrmOrder), managers one after the other.
 */
export function layOut(method: string, managers: readonly VRMSpringBoneManager[], managerName: ManagerName): Layout {
  // every joint bone, mapped to the last joint driving it
  const entries: { joint: VRMSpringBoneJoint; manager: VRMSpringBoneManager; m: number; k: number }[] = [];
  const boneIndex = new Map<Object3D, number>();
  managers.forEach((manager, m) => {
    let k = 0;
    for (const joint of manager.joints) {
      if (typeof joint !== 'object' || joint === null)
        throw new TypeError(`${method}: ${managerName(m)}'s joint ${k} must be a VRMSpringBoneJoint, got ${describe(joint)}`);
      const where = jointName(managerName, m, k, joint);
      if (!isObject3D(joint.bone)) throw new TypeError(`${method}: ${where}: bone must be an Object3D, got ${describe(joint.bone)}`);
      if (joint.child !== null && !isObject3D(joint.child)) {
        throw new TypeError(`${method}: ${where}: child must be an Object3D or null, got ${describe(joint.child)}`);
      }
      if (joint.bone.parent === null) {
        throw new RangeError(`${method}: ${where}: the bone has no parent (it is not in a scene)`);
      }
      boneIndex.set(joint.bone, entries.length);
      entries.push({ joint, manager, m, k });
      k++;
    }
  });
  // three-vrm's own order, manager by manager (VRMSpringBoneManager._sortJoints), and the objects its pass over
  // the chains' ancestors updates before the joints (each manager's _ancestors, the lowest one's ancestors first)
  const entryOf = new Map(entries.map((entry, i) => [entry.joint, i]));
  const order: number[] = [];
  const managerAt: number[] = []; // the manager of each joint in this order
  const before: PassEntry[] = [];
  const beforeAt: number[] = [];
  // each manager's own pass: three-vrm's manager updates its ancestors when it runs, after the managers before it
  const passOf: Map<Object3D, number>[] = [];
  const hierarchy = new Set<Object3D>();
  managers.forEach((manager, m) => {
    const sorted = threeVrmOrder(manager, m, entryOf);
    const first = order.length;
    for (const e of sorted.order) {
      order.push(e);
      managerAt.push(m);
    }
    const inPass = new Map<Object3D, number>();
    passOf.push(inPass);
    for (const object of sorted.ancestors) {
      const parent = object.parent === null ? NO_PARENT : inPass.get(object.parent);
      inPass.set(object, before.length);
      before.push({ object, parent: parent ?? NO_PARENT, mode: 'update' });
      beforeAt.push(first);
      hierarchy.add(object);
    }
  });
  let current = 0; // the manager of the joint being laid out
  let currentJoint = 0; // and the joint
  // the joints on each bone, in this order
  const onBone = new Map<Object3D, number[]>();
  order.forEach((e, j) => {
    const bone = entries[e]!.joint.bone;
    const list = onBone.get(bone);
    if (list) list.push(j);
    else onBone.set(bone, [j]);
  });
  /** The last joint on `bone` that runs before joint j, or −1. */
  const lastBefore = (bone: Object3D, j: number): number => {
    let last = -1;
    for (const k of onBone.get(bone) ?? []) if (k < j) last = k;
    return last;
  };

  const slots: Slot[] = [];
  const passSlot = new Map<number, number>(); // the slot of each pass entry
  // the current manager's 'read' entries (objects outside its pass) and 'collider' entries (colliders read as they
  // stand): read when it runs, after the managers before it
  let readEntry = new Map<Object3D, number>();
  let colliderEntry = new Map<Object3D, number>();
  /** The pass entry of `object` if the current manager's own pass over its ancestors updates it, else undefined. */
  const passedBy = (object: Object3D): number | undefined => passOf[current]!.get(object);
  /** The slot of `object`'s matrixWorld (computed by the pass, or read) or colliderMatrix (`collider`) as the current manager starts. */
  const startSlot = (object: Object3D, collider: boolean): number => {
    const entries = collider ? colliderEntry : readEntry;
    let entry = collider ? undefined : passedBy(object);
    entry ??= entries.get(object);
    if (entry === undefined) {
      entry = before.push({ object, parent: NO_PARENT, mode: collider ? 'collider' : 'read' }) - 1;
      beforeAt.push(currentJoint);
      entries.set(object, entry);
      hierarchy.add(object);
    }
    let s = passSlot.get(entry);
    if (s === undefined) {
      s = slots.push({ kind: 'pass', entry }) - 1;
      passSlot.set(entry, s);
    }
    return s;
  };
  /** Consecutive slots of the local matrices of `objects`. */
  const localSlots = (objects: Object3D[]): number => {
    const first = slots.length;
    for (const object of objects) {
      slots.push({ kind: 'local', object });
      hierarchy.add(object);
    }
    return first;
  };
  /** Whether `object`'s matrixWorld has been recomputed this step when joint j reads it (below a joint that ran before it). */
  const computedAt = (object: Object3D, j: number): boolean => {
    const bone = jointAncestor(object, boneIndex, true);
    return bone !== null && lastBefore(bone, j) >= 0;
  };
  /** Where joint j reads `object`'s matrixWorld (see the references in spring-bone-layout.ts): joint, slot, count. */
  const reference = (object: Object3D, j: number): [number, number, number] => {
    const bone = jointAncestor(object, boneIndex, true);
    const k = bone === null ? -1 : lastBefore(bone, j);
    if (k < 0) return [-1, startSlot(object, false), 1];
    if (object === bone) return [k, -1, 0];
    const links = below(bone!, object);
    return [k, localSlots(links), links.length];
  };

  const colliders: VRMSpringBoneCollider[] = [];
  let colliderIndex = new Map<VRMSpringBoneCollider, number>(); // the current manager's colliders (each laid out per manager)
  const colliderSetup: number[] = [];
  const centers: number[] = [];
  const colliderList: number[] = [];
  const setup = new Float64Array(SETUP * entries.length);
  const liveChildren: Layout['liveChildren'] = [];
  const owned = new Map<Object3D, number[]>(); // the colliders below each joint bone (moved after each joint on it)
  // the slots, colliders and centers laid out before each joint (an avatar's ranges start there)
  const laidBefore: number[][] = [];

  // every joint checked in the managers' order (so that an error names the first bad joint a user would find)
  const floats = entries.map(({ joint, m, k }) => jointFloats(method, jointName(managerName, m, k, joint), joint));
  order.forEach((e, j) => {
    const { joint } = entries[e]!;
    const s = SETUP * j;
    const bone = joint.bone;
    if (j > 0 && managerAt[j] !== current) {
      readEntry = new Map();
      colliderEntry = new Map();
      colliderIndex = new Map();
    }
    current = managerAt[j]!;
    currentJoint = j;
    laidBefore.push([slots.length, colliders.length, centers.length]);
    hierarchy.add(bone);
    setup.set(floats[e]!, s);
    setup.set(reference(bone.parent!, j), s + S_PARENT);
    setup[s + S_SAME_BONE] = lastBefore(bone, j);
    setup.fill(-1, s + S_CHILD_REF, s + S_CHILD_REF + REF);
    if (joint.child) {
      hierarchy.add(joint.child);
      // computed this step (below a joint that ran), or as it stands: its position read as the update starts, not a slot
      if (computedAt(joint.child, j)) setup.set(reference(joint.child, j), s + S_CHILD_REF);
      else liveChildren.push({ index: j, child: joint.child, elements: joint.child.matrixWorld.elements });
    }
    setup.fill(-1, s + S_CENTER, s + S_CENTER + REF);
    if (joint.center) {
      hierarchy.add(joint.center);
      const ref = reference(joint.center, j);
      setup.set(ref, s + S_CENTER);
      if (ref[0] < 0 && !centers.includes(ref[1])) centers.push(ref[1]);
    }
    // colliders, in three-vrm's order: groups, then each group's colliders
    setup[s + S_COLLIDER_START] = colliderList.length;
    for (const group of joint.colliderGroups) {
      for (const collider of group.colliders) {
        let index = colliderIndex.get(collider);
        if (index === undefined) {
          index = colliders.length;
          const c = COLLIDER * index;
          colliderSetup.push(...shapeFloats(collider.shape));
          hierarchy.add(collider);
          // three-vrm's pass over the ancestors updates it before the joints; else it is as it stood, until a joint on
          // the bone above it moves it (W[joint]·its local matrices from that bone)
          const computed = passedBy(collider) !== undefined;
          colliderSetup[c + C_SLOT] = startSlot(collider, !computed);
          colliderSetup[c + C_LIVE] = computed ? 0 : 1;
          const owner = jointAncestor(collider, boneIndex, false);
          if (owner !== null) {
            const links = below(owner, collider);
            colliderSetup[c + C_LINK_SLOT] = localSlots(links);
            colliderSetup[c + C_LINK_COUNT] = links.length;
            const list = owned.get(owner);
            if (list) list.push(index);
            else owned.set(owner, [index]);
          }
          colliders.push(collider);
          colliderIndex.set(collider, index);
        }
        colliderList.push(index);
      }
    }
    setup[s + S_COLLIDER_COUNT] = colliderList.length - setup[s + S_COLLIDER_START]!;
  });

  // each joint's owned colliders (below its bone), moved to world space after each joint on that bone
  order.forEach((e, j) => {
    setup[SETUP * j + S_OWNED_START] = colliderList.length;
    colliderList.push(...(owned.get(entries[e]!.joint.bone) ?? []));
    setup[SETUP * j + S_OWNED_COUNT] = colliderList.length - setup[SETUP * j + S_OWNED_START]!;
  });
  const joints = order.map((e) => ({ joint: entries[e]!.joint, manager: entries[e]!.manager }));
  return {
    joints,
    slots,
    colliders,
    centers,
    setup,
    colliderList,
    colliderSetup: Float64Array.from(colliderSetup),
    avatars: avatarTable(managerAt, laidBefore, [slots.length, colliders.length, centers.length]),
    before,
    beforeAt,
    after: objectsAfter(joints, boneIndex, (bone) => onBone.get(bone)!.at(-1)!),
    liveChildren,
    childless: Uint8Array.from(joints, ({ joint }) => (joint.child ? 0 : 1)),
    links: [...new Set(slots.flatMap((slot) => (slot.kind === 'local' ? [slot.object] : [])))],
    hierarchy,
  };
}

/**
 * The avatar table (AVATAR floats a row): a row per manager with joints, in order, with its joints'
 * range and the slots, colliders and centers laid out with them (`before[j]`: their counts before
 * joint j; `total`: after the last). The kernel runs the rows one after the other, as three-vrm runs
 * its managers: a row may read what an earlier row computed (a slot or a collider it laid out, a
 * joint's matrix).
 */
function avatarTable(managerAt: readonly number[], before: readonly number[][], total: number[]): Float64Array {
  const starts: number[] = [];
  managerAt.forEach((m, j) => {
    if (j === 0 || m !== managerAt[j - 1]) starts.push(j);
  });
  const table = new Float64Array(AVATAR * starts.length);
  starts.forEach((j, a) => {
    const end = starts[a + 1] ?? managerAt.length;
    const [from, to] = [before[j]!, before[end] ?? total];
    table.set([j, end], AVATAR * a + A_JOINTS);
    table.set([from[0]!, to[0]!], AVATAR * a + A_SLOTS);
    table.set([from[1]!, to[1]!], AVATAR * a + A_COLLIDERS);
    table.set([from[2]!, to[2]!], AVATAR * a + A_CENTERS);
  });
  return table;
}

/** Managers already warned of a circular dependency (once each, as three-vrm's own warning). */
const warnedCircular = new WeakSet<VRMSpringBoneManager>();

/**
 * The entries of `manager`'s joints in the order its own update runs them (three-vrm 3.5's
 * _sortJoints and _insertJointSort): for each joint in insertion order, first the joints on every
 * ancestor of its dependencies (its bone's parent, then its colliders), root first, recursively.
 * A joint met again while its dependencies are being placed closes a circle: three-vrm warns once
 * and goes on, and so does this (the joints then read some matrices of the frame before, as there).
 */
function threeVrmOrder(
  manager: VRMSpringBoneManager,
  m: number,
  entryOf: Map<VRMSpringBoneJoint, number>,
): { order: number[]; ancestors: Object3D[] } {
  const onBone = new Map<Object3D, VRMSpringBoneJoint[]>();
  for (const joint of manager.joints) {
    const list = onBone.get(joint.bone);
    if (list) list.push(joint);
    else onBone.set(joint.bone, [joint]);
  }
  const order: number[] = [];
  const tops = new Set<Object3D>();
  const tried = new Set<VRMSpringBoneJoint>();
  const done = new Set<VRMSpringBoneJoint>();
  let circular = false;
  const insert = (joint: VRMSpringBoneJoint): void => {
    if (done.has(joint)) return;
    if (tried.has(joint)) {
      circular = true;
      return;
    }
    tried.add(joint);
    const dependencies = new Set<Object3D>();
    if (joint.bone.parent) dependencies.add(joint.bone.parent);
    for (const group of joint.colliderGroups) for (const collider of group.colliders) dependencies.add(collider);
    for (const dependency of dependencies) {
      const path: Object3D[] = [];
      for (let node: Object3D | null = dependency; node !== null; node = node.parent) path.unshift(node);
      // the deepest object of the path above its first joint bone joins the objects whose lowest common ancestor is found below
      let above: Object3D | null = null;
      let met = false;
      for (const ancestor of path) {
        const others = onBone.get(ancestor);
        if (others) {
          met = true;
          for (const other of others) insert(other);
        } else if (!met) above = ancestor;
      }
      if (above) tops.add(above);
    }
    order.push(entryOf.get(joint)!);
    done.add(joint);
  };
  for (const joint of manager.joints) insert(joint);
  if (circular && !warnedCircular.has(manager)) {
    warnedCircular.add(manager);
    console.warn(
      `SpringBones: manager ${m}: circular dependency detected (three-vrm's manager warns the same and runs the joints in the same order)`,
    );
  }
  return { order, ancestors: ancestorPass(tops, onBone) };
}

/**
 * The objects three-vrm's manager updates before its joints (its _ancestors, updateWorldMatrix each),
 * in that order: the lowest common ancestor of `tops` with its own ancestors (root first: its
 * updateWorldMatrix(true, false)), then every object below it that is not a joint bone nor below one.
 */
function ancestorPass(tops: Set<Object3D>, onBone: Map<Object3D, unknown>): Object3D[] {
  const lowest = lowestCommonAncestor(tops);
  if (lowest === null) return [];
  const list: Object3D[] = [];
  for (let node: Object3D | null = lowest; node !== null; node = node.parent) list.unshift(node);
  const walk = (object: Object3D): void => {
    for (const child of object.children) {
      if (onBone.has(child)) continue;
      list.push(child);
      walk(child);
    }
  };
  walk(lowest);
  return list;
}

/** three-vrm's lowestCommonAncestor: the first object every one of `objects` has at or above it. */
function lowestCommonAncestor(objects: Set<Object3D>): Object3D | null {
  const counts = new Map<Object3D, number>();
  for (const object of objects) {
    for (let node: Object3D | null = object; node !== null; node = node.parent) {
      const count = (counts.get(node) ?? 0) + 1;
      if (count === objects.size) return node;
      counts.set(node, count);
    }
  }
  return null;
}

/** The elements of three's column-major 4×4 that the affine 3×4 layout keeps. */
export const AFFINE = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14] as const;

/**
 * The setup floats of a joint that do not depend on the order (the tail, the rest state, the
 * settings), with its center and colliders checked.
 */
function jointFloats(method: string, where: string, joint: VRMSpringBoneJoint): Float64Array {
  const floats = new Float64Array(SETUP);
  const internals = joint as unknown as JointInternals;
  for (const field of INTERNALS) {
    if (typeof internals[field] !== 'object' || internals[field] === null || !Array.isArray(internals._initialLocalMatrix?.elements))
      throw new TypeError(
        `${method}: ${where}: is not a VRMSpringBoneJoint of @pixiv/three-vrm-springbone 3.5 (the state its setInitState keeps is missing)`,
      );
  }
  const center = joint.center;
  if (center !== null && center !== undefined && !isObject3D(center)) {
    throw new TypeError(`${method}: ${where}: center must be an Object3D or null, got ${describe(center)}`);
  }
  floats[S_HAS_CHILD] = joint.child ? 1 : 0;
  const c = vector(method, where, 'initialLocalChildPosition', joint.initialLocalChildPosition);
  if (c[0] === 0 && c[1] === 0 && c[2] === 0) {
    throw new RangeError(`${method}: ${where}: the bone has zero length (its child is at its origin, or setInitState was not called)`);
  }
  floats.set(c, S_CHILD);
  // three-vrm's private fields, set by setInitState, named as what they are
  floats.set(vector(method, where, "setInitState's bone axis", internals._boneAxis), S_AXIS);
  const q0 = internals._initialLocalRotation;
  (['x', 'y', 'z', 'w'] as const).forEach((axis, i) => {
    floats[S_Q0 + i] = finite(method, where, `setInitState's local rotation.${axis}`, q0[axis]);
  });
  const l0 = internals._initialLocalMatrix.elements;
  AFFINE.forEach((element, i) => {
    floats[S_L0 + i] = finite(method, where, `setInitState's local matrix, element ${element},`, l0[element]);
  });
  settingsFloats(method, where, joint.settings, floats, 0);
  const groups = joint.colliderGroups;
  if (!Array.isArray(groups as unknown))
    throw new TypeError(`${method}: ${where}: colliderGroups must be an Array, got ${describe(groups)}`);
  groups.forEach((group, g) => {
    if (!Array.isArray(group?.colliders as unknown)) {
      throw new TypeError(`${method}: ${where}: colliderGroups[${g}].colliders must be an Array, got ${describe(group?.colliders)}`);
    }
    group.colliders.forEach((collider, i) => checkCollider(method, where, `colliderGroups[${g}].colliders[${i}]`, collider));
  });
  return floats;
}

/**
 * A joint's settings, checked, into floats[o + S_HIT_RADIUS…S_DRAG].
 */
function settingsFloats(method: string, where: string, settings: SpringBoneSettings, floats: Float64Array, o: number): void {
  if (typeof settings !== 'object' || settings === null)
    throw new TypeError(`${method}: ${where}: settings must be an object, got ${describe(settings)}`);
  floats[o + S_HIT_RADIUS] = atLeastZero(method, where, 'settings.hitRadius', settings.hitRadius);
  floats[o + S_STIFFNESS] = atLeastZero(method, where, 'settings.stiffness', settings.stiffness);
  floats[o + S_GRAVITY_POWER] = atLeastZero(method, where, 'settings.gravityPower', settings.gravityPower);
  floats.set(vector(method, where, 'settings.gravityDir', settings.gravityDir), o + S_GRAVITY_DIR);
  const drag = finite(method, where, 'settings.dragForce', settings.dragForce);
  if (drag < 0 || drag > 1) throw new RangeError(`${method}: ${where}: settings.dragForce is ${show(drag)}; it must be in [0, 1]`);
  floats[o + S_DRAG] = drag;
}

/** Throws when a collider is not an Object3D with a valid shape. */
function checkCollider(method: string, where: string, name: string, collider: VRMSpringBoneCollider): void {
  if (!isObject3D(collider)) throw new TypeError(`${method}: ${where}: ${name} must be a VRMSpringBoneCollider, got ${describe(collider)}`);
  const shape = collider.shape as unknown as Record<string, unknown> | undefined;
  const type = shape?.type;
  if (shape === undefined || (type !== 'sphere' && type !== 'capsule' && type !== 'plane')) {
    throw new TypeError(`${method}: ${where}: ${name}.shape.type is ${describe(type)}; it must be 'sphere', 'capsule' or 'plane'`);
  }
  if (shape.offset !== undefined) vector(method, where, `${name}.shape.offset`, shape.offset);
  if (type === 'plane') {
    const n = vector(method, where, `${name}.shape.normal`, shape.normal);
    if (n[0] === 0 && n[1] === 0 && n[2] === 0) throw new RangeError(`${method}: ${where}: ${name}.shape.normal is the zero vector`);
  } else {
    atLeastZero(method, where, `${name}.shape.radius`, shape.radius);
    if (type === 'capsule') vector(method, where, `${name}.shape.tail`, shape.tail);
  }
}

/** A checked shape's COLLIDER floats (the slots are set by the caller). */
function shapeFloats(shape: SpringBoneColliderShape): number[] {
  const floats = new Array<number>(COLLIDER).fill(0);
  const offset = shape.offset ?? { x: 0, y: 0, z: 0 };
  floats.splice(C_OFFSET, 3, offset.x, offset.y, offset.z);
  if (shape.type === 'plane') {
    floats[C_KIND] = KIND_PLANE;
    floats.splice(C_VECTOR, 3, shape.normal!.x, shape.normal!.y, shape.normal!.z);
  } else {
    floats[C_KIND] = shape.type === 'sphere' ? KIND_SPHERE : KIND_CAPSULE;
    floats[C_RADIUS] = shape.radius!;
    floats[C_INSIDE] = shape.inside === true ? 1 : 0;
    if (shape.type === 'capsule') floats.splice(C_VECTOR, 3, shape.tail!.x, shape.tail!.y, shape.tail!.z);
  }
  return floats;
}

/**
 * three-vrm's _relevantChildrenUpdated walk below every joint bone (stopping at joint bones), in
 * joint order, with each one's parent: the last joint on a joint bone, or an earlier object.
 */
function objectsAfter(joints: readonly LaidJoint[], bones: Map<Object3D, number>, lastJoint: (bone: Object3D) => number): PassEntry[] {
  const entries: PassEntry[] = [];
  const index = new Map<Object3D, number>();
  const seen = new Set<Object3D>();
  const walk = (object: Object3D): void => {
    for (const child of object.children) {
      if (bones.has(child)) continue;
      const parent: ParentRef = bones.has(object) ? jointParent(lastJoint(object)) : index.get(object)!;
      index.set(child, entries.length);
      entries.push({ object: child, parent, mode: 'update' });
      walk(child);
    }
  };
  for (const { joint } of joints) {
    if (seen.has(joint.bone)) continue;
    seen.add(joint.bone);
    walk(joint.bone);
  }
  return entries;
}
