/**
 * Reading three-vrm spring-bone managers into the flat layout of the spring-bone kernel
 * (src/reference/spring-bones.ts): which joint is whose parent, the order (parents first), the
 * ext slots (matrices read from three.js every frame), the colliders, and the objects to keep
 * current before and after the kernel. Everything is checked here, so that a bad setting or an
 * unsupported hierarchy throws before anything is attached or written.
 */
import type { Object3D } from 'three';
import type {
  SpringBoneCollider as VRMSpringBoneCollider,
  SpringBoneColliderShape,
  SpringBoneJoint as VRMSpringBoneJoint,
  SpringBoneManager as VRMSpringBoneManager,
} from './types.js';
import { describe, show } from '../core/validate.js';
import { NO_PARENT, jointParent, type ParentRef } from './matrix-pass.js';
import {
  AVATAR,
  A_CENTERS,
  A_COLLIDERS,
  A_JOINTS,
  A_SLOTS,
  COLLIDER,
  C_INSIDE,
  C_KIND,
  C_OFFSET,
  C_RADIUS,
  C_SLOT,
  C_VECTOR,
  KIND_CAPSULE,
  KIND_PLANE,
  KIND_SPHERE,
  SETUP,
  S_AXIS,
  S_CENTER,
  S_CHILD,
  S_COLLIDER_COUNT,
  S_COLLIDER_START,
  S_CHILD_JOINT,
  S_OWNED_COUNT,
  S_OWNED_START,
  C_OWNER,
  S_DRAG,
  S_GRAVITY_DIR,
  S_GRAVITY_POWER,
  S_HAS_CHILD,
  S_HIT_RADIUS,
  S_L0,
  S_PARENT_JOINT,
  S_PARENT_SLOT,
  S_POSITION,
  S_Q0,
  S_SCALE,
  S_STIFFNESS,
} from '../reference/spring-bones.js';

/** What SpringBones reads of a joint besides its public fields: the state three-vrm keeps privately (3.5.x). */
export interface JointInternals {
  _currentTail: { x: number; y: number; z: number };
  _prevTail: { x: number; y: number; z: number };
  _boneAxis: { x: number; y: number; z: number };
  _initialLocalMatrix: { elements: number[] };
  _initialLocalRotation: { x: number; y: number; z: number; w: number };
}

/** An ext slot: a matrixWorld read every frame, or the product of the local matrices between a joint's bone and another joint's. */
export type Slot = { kind: 'world'; object: Object3D } | { kind: 'link'; objects: Object3D[] };

/** Objects of a MatrixPass, parents first, and their parents. */
export interface Pass {
  objects: Object3D[];
  parents: ParentRef[];
}

/** A joint in kernel order, with what the frame loop needs of it. */
export interface LaidJoint {
  joint: VRMSpringBoneJoint;
  manager: VRMSpringBoneManager;
}

export interface Layout {
  joints: LaidJoint[];
  slots: Slot[];
  colliders: VRMSpringBoneCollider[];
  /** The slot of each center. */
  centers: number[];
  /** Per joint (kernel order), SETUP floats. */
  setup: Float64Array;
  /** Collider indices, per joint from its S_COLLIDER_START. */
  colliderList: number[];
  /** Per collider, COLLIDER floats. */
  colliderSetup: Float64Array;
  /** Per avatar, AVATAR floats: its ranges of joints, slots, colliders and centers (see avatarTable). */
  avatars: Float64Array;
  /** Objects whose matrixWorld must be current before the kernel reads the slots, parents first. */
  before: Pass;
  /** Non-joint descendants of joint bones (not below another joint's bone), updated after the joints as three-vrm does. */
  after: Pass;
  /** Per slot, the index of its object in `before` (−1 for a link). */
  slotObjects: number[];
  /** Joints whose child is not a child of their bone: the child's matrixWorld is read every frame. */
  looseChildren: { index: number; child: Object3D }[];
}

/** The label of joint `k` of manager `m` in an error message. */
function jointName(m: number, k: number, joint: VRMSpringBoneJoint): string {
  const name = joint.bone?.name;
  return `manager ${m}, joint ${k}${name ? ` (bone "${name}")` : ''}`;
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

/**
 * The layout of every joint of `managers` (method: the name errors start with), in three-vrm's own
 * order (see threeVrmOrder), managers one after the other.
 */
export function layOut(method: string, managers: readonly VRMSpringBoneManager[]): Layout {
  // every joint bone, mapped to the last joint driving it (whose output is the bone's final matrix)
  const entries: { joint: VRMSpringBoneJoint; manager: VRMSpringBoneManager; m: number; k: number }[] = [];
  const boneIndex = new Map<Object3D, number>();
  managers.forEach((manager, m) => {
    let k = 0;
    for (const joint of manager.joints) {
      const where = jointName(m, k, joint);
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
  // three-vrm's own order, manager by manager (VRMSpringBoneManager._sortJoints): every joint after the joints on
  // the ancestors of its dependencies (its bone's parent and its colliders), depth first; a circle warns, as there
  const entryOf = new Map(entries.map((entry, i) => [entry.joint, i]));
  const order: number[] = [];
  const managerAt: number[] = []; // the manager of each joint in this order
  managers.forEach((manager, m) => {
    for (const e of threeVrmOrder(manager, m, entryOf)) {
      order.push(e);
      managerAt.push(m);
    }
  });
  // joined[m]: managers m − 1 and m are in one avatar, since managers from one to the other share something
  const joined = new Uint8Array(managers.length);
  const join = (a: number, b: number): void => {
    joined.fill(1, Math.min(a, b) + 1, Math.max(a, b) + 1);
  };
  let current = 0; // the manager of the joint being laid out
  // the joint whose output is a bone's final matrix: the last one on it in this order
  const lastOnBone = new Map<Object3D, number>(order.map((e, j) => [entries[e]!.joint.bone, j]));

  const slots: Slot[] = [];
  const slotManager: number[] = [];
  const worldSlot = new Map<Object3D, number>();
  const slotOf = (object: Object3D): number => {
    let s = worldSlot.get(object);
    if (s === undefined) {
      s = slots.length;
      slots.push({ kind: 'world', object });
      worldSlot.set(object, s);
      slotManager.push(current);
    }
    join(current, slotManager[s]!);
    return s;
  };
  const linkSlot = (objects: Object3D[]): number => {
    slotManager.push(current);
    return slots.push({ kind: 'link', objects }) - 1;
  };
  const colliders: VRMSpringBoneCollider[] = [];
  const colliderManager: number[] = [];
  const colliderIndex = new Map<VRMSpringBoneCollider, number>();
  const colliderSetup: number[] = [];
  const centers: number[] = [];
  const colliderList: number[] = [];
  const setup = new Float64Array(SETUP * entries.length);
  const looseChildren: { index: number; child: Object3D }[] = [];
  // the slots, colliders and centers laid out before each joint (an avatar's ranges start there)
  const laidBefore: number[][] = [];

  // every joint checked in the managers' order (so that an error names the first bad joint a user would find)
  const floats = entries.map(({ joint, m, k }) => jointFloats(method, jointName(m, k, joint), joint, boneIndex));
  order.forEach((e, j) => {
    const { joint } = entries[e]!;
    const s = SETUP * j;
    const bone = joint.bone;
    current = managerAt[j]!;
    laidBefore.push([slots.length, colliders.length, centers.length]);
    setup.set(floats[e]!, s);
    setup[s + S_CHILD_JOINT] = joint.child ? (lastOnBone.get(joint.child) ?? -1) : -1;
    if (setup[s + S_CHILD_JOINT]! >= 0) join(current, managerAt[setup[s + S_CHILD_JOINT]!]!);
    // the parent: the last joint on the nearest joint bone above, times the locals in between; or the bone's parent's matrixWorld
    const above = jointAncestor(bone, boneIndex, false);
    if (above === null) {
      setup[s + S_PARENT_JOINT] = -1;
      setup[s + S_PARENT_SLOT] = bone.parent === null ? -1 : slotOf(bone.parent);
    } else {
      setup[s + S_PARENT_JOINT] = lastOnBone.get(above)!;
      join(current, managerAt[lastOnBone.get(above)!]!);
      const between: Object3D[] = [];
      for (let node = bone.parent; node !== above; node = node!.parent) between.unshift(node!);
      setup[s + S_PARENT_SLOT] = between.length === 0 ? -1 : linkSlot(between);
    }
    const center = joint.center;
    setup[s + S_CENTER] = -1;
    if (center) {
      const slot = slotOf(center);
      if (!centers.includes(slot)) centers.push(slot);
      setup[s + S_CENTER] = slot;
    }
    if (joint.child && joint.child.parent !== bone) looseChildren.push({ index: j, child: joint.child });
    // colliders, in three-vrm's order: groups, then each group's colliders
    setup[s + S_COLLIDER_START] = colliderList.length;
    for (const group of joint.colliderGroups) {
      for (const collider of group.colliders) {
        let index = colliderIndex.get(collider);
        if (index === undefined) {
          index = colliders.length;
          colliderSetup.push(...shapeFloats(collider.shape));
          // below a joint bone: that joint's matrixWorld times the locals down to the collider; else its own matrixWorld
          const owner = jointAncestor(collider, boneIndex, false);
          if (owner === null) colliderSetup[COLLIDER * index + C_SLOT] = slotOf(collider);
          else {
            const between: Object3D[] = [];
            for (let node: Object3D | null = collider; node !== owner; node = node!.parent) between.unshift(node!);
            colliderSetup[COLLIDER * index + C_SLOT] = linkSlot(between);
            join(current, managerAt[lastOnBone.get(owner)!]!);
          }
          colliderSetup[COLLIDER * index + C_OWNER] = owner === null ? -1 : lastOnBone.get(owner)!;
          colliders.push(collider);
          colliderManager.push(current);
          colliderIndex.set(collider, index);
        }
        join(current, colliderManager[index]!);
        colliderList.push(index);
      }
    }
    setup[s + S_COLLIDER_COUNT] = colliderList.length - setup[s + S_COLLIDER_START]!;
  });

  // each joint's own colliders (below its bone), moved to world space right after its step
  for (let j = 0; j < order.length; j++) {
    setup[SETUP * j + S_OWNED_START] = colliderList.length;
    colliders.forEach((_, c) => {
      if (colliderSetup[COLLIDER * c + C_OWNER] === j) colliderList.push(c);
    });
    setup[SETUP * j + S_OWNED_COUNT] = colliderList.length - setup[SETUP * j + S_OWNED_START]!;
  }
  const before = objectsBefore(slots);
  const joints = order.map((e) => ({ joint: entries[e]!.joint, manager: entries[e]!.manager }));
  return {
    joints,
    slots,
    colliders,
    centers,
    setup,
    colliderList,
    colliderSetup: Float64Array.from(colliderSetup),
    avatars: avatarTable(managerAt, joined, laidBefore, [slots.length, colliders.length, centers.length]),
    before,
    after: objectsAfter(joints, boneIndex, (bone) => lastOnBone.get(bone)!),
    slotObjects: slots.map((slot) => (slot.kind === 'world' ? before.objects.indexOf(slot.object) : -1)),
    looseChildren,
  };
}

/**
 * The avatar table (AVATAR floats an avatar): each run of managers that share nothing with the
 * managers around it (`joined`) is an avatar, its joints' range and the slots, colliders and
 * centers laid out with them (`before[j]`: their counts before joint j; `total`: after the last).
 * What a joint reads of another avatar would be a slot, a collider or a joint of it, so the avatars'
 * ranges are disjoint and each avatar's step reads and writes only its own.
 */
function avatarTable(managerAt: readonly number[], joined: Uint8Array, before: readonly number[][], total: number[]): Float64Array {
  // the first joint of each avatar: a joint of another manager, none of the managers from the last one to it joined
  const starts: number[] = [];
  managerAt.forEach((m, j) => {
    if (j === 0 || (m !== managerAt[j - 1] && !joined.subarray(managerAt[j - 1]! + 1, m + 1).includes(1))) starts.push(j);
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
function threeVrmOrder(manager: VRMSpringBoneManager, m: number, entryOf: Map<VRMSpringBoneJoint, number>): number[] {
  const onBone = new Map<Object3D, VRMSpringBoneJoint[]>();
  for (const joint of manager.joints) {
    const list = onBone.get(joint.bone);
    if (list) list.push(joint);
    else onBone.set(joint.bone, [joint]);
  }
  const order: number[] = [];
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
      for (const ancestor of path) for (const other of onBone.get(ancestor) ?? []) insert(other);
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
  return order;
}

/** The elements of three's column-major 4×4 that the affine 3×4 layout keeps. */
export const AFFINE = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14] as const;

/**
 * The setup floats of a joint that do not depend on the order (the tail, the rest state, the
 * settings), with its center and colliders checked.
 */
function jointFloats(method: string, where: string, joint: VRMSpringBoneJoint, bones: Map<Object3D, number>): Float64Array {
  const floats = new Float64Array(SETUP);
  const internals = joint as unknown as JointInternals;
  const center = joint.center;
  if (center !== null && center !== undefined) {
    if (!isObject3D(center)) throw new TypeError(`${method}: ${where}: center must be an Object3D or null, got ${describe(center)}`);
    if (jointAncestor(center, bones, true) !== null) {
      throw new RangeError(
        `${method}: ${where}: its center is a spring joint's bone or below one; SpringBones needs centers outside the chains`,
      );
    }
  }
  if ((joint.bone as { pivot?: unknown }).pivot) {
    throw new RangeError(
      `${method}: ${where}: the bone has a pivot; SpringBones composes joint bones without one, as three-vrm did before pivots`,
    );
  }
  floats[S_HAS_CHILD] = joint.child ? 1 : 0;
  floats.set(vector(method, where, 'bone.position', joint.bone.position), S_POSITION);
  floats.set(vector(method, where, 'bone.scale', joint.bone.scale), S_SCALE);
  const c = vector(method, where, 'initialLocalChildPosition', joint.initialLocalChildPosition);
  if (c[0] === 0 && c[1] === 0 && c[2] === 0) {
    throw new RangeError(`${method}: ${where}: the bone has zero length (its child is at its origin, or setInitState was not called)`);
  }
  floats.set(c, S_CHILD);
  floats.set(vector(method, where, '_boneAxis', internals._boneAxis), S_AXIS);
  const q0 = internals._initialLocalRotation;
  (['x', 'y', 'z', 'w'] as const).forEach((axis, i) => {
    floats[S_Q0 + i] = finite(method, where, `_initialLocalRotation.${axis}`, q0[axis]);
  });
  const l0 = internals._initialLocalMatrix.elements;
  AFFINE.forEach((element, i) => {
    floats[S_L0 + i] = finite(method, where, `_initialLocalMatrix.elements[${element}]`, l0[element]);
  });
  const settings = joint.settings;
  if (typeof settings !== 'object' || settings === null)
    throw new TypeError(`${method}: ${where}: settings must be an object, got ${describe(settings)}`);
  floats[S_HIT_RADIUS] = atLeastZero(method, where, 'settings.hitRadius', settings.hitRadius);
  floats[S_STIFFNESS] = atLeastZero(method, where, 'settings.stiffness', settings.stiffness);
  floats[S_GRAVITY_POWER] = atLeastZero(method, where, 'settings.gravityPower', settings.gravityPower);
  floats.set(vector(method, where, 'settings.gravityDir', settings.gravityDir), S_GRAVITY_DIR);
  const drag = finite(method, where, 'settings.dragForce', settings.dragForce);
  if (drag < 0 || drag > 1) throw new RangeError(`${method}: ${where}: settings.dragForce is ${show(drag)}; it must be in [0, 1]`);
  floats[S_DRAG] = drag;
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

/** A checked shape's COLLIDER floats (the slot is set by the caller). */
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

/** The world slots' objects and all their ancestors, each once, parents first, with each one's parent's index (−1: none). */
function objectsBefore(slots: readonly Slot[]): Pass {
  const depth = new Map<Object3D, number>();
  const visit = (object: Object3D): number => {
    const known = depth.get(object);
    if (known !== undefined) return known;
    const d = object.parent === null ? 0 : visit(object.parent) + 1;
    depth.set(object, d);
    return d;
  };
  for (const slot of slots) if (slot.kind === 'world') visit(slot.object);
  const objects = [...depth.keys()].sort((a, b) => depth.get(a)! - depth.get(b)!);
  const index = new Map(objects.map((o, i) => [o, i]));
  return { objects, parents: objects.map((o) => (o.parent === null ? NO_PARENT : index.get(o.parent)!)) };
}

/**
 * three-vrm's _relevantChildrenUpdated walk below every joint bone (stopping at joint bones), in
 * joint order, with each one's parent: the last joint on a joint bone, or an earlier object.
 */
function objectsAfter(joints: readonly LaidJoint[], bones: Map<Object3D, number>, lastJoint: (bone: Object3D) => number): Pass {
  const objects: Object3D[] = [];
  const parents: ParentRef[] = [];
  const index = new Map<Object3D, number>();
  const seen = new Set<Object3D>();
  const walk = (object: Object3D): void => {
    for (const child of object.children) {
      if (bones.has(child)) continue;
      index.set(child, objects.length);
      objects.push(child);
      parents.push(bones.has(object) ? jointParent(lastJoint(object)) : index.get(object)!);
      walk(child);
    }
  };
  for (const { joint } of joints) {
    if (seen.has(joint.bone)) continue;
    seen.add(joint.bone);
    walk(joint.bone);
  }
  return { objects, parents };
}
