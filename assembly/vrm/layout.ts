// The flat layout of the spring-bone kernel (its float64 arrays; src/reference/spring-bones.ts
// documents every field) and the accessors of those arrays.
// setup: floats per joint and their offsets
export const SETUP: i32 = 44;
export const S_PARENT_JOINT: i32 = 0;
export const S_PARENT_SLOT: i32 = 1;
export const S_CENTER: i32 = 2;
export const S_HAS_CHILD: i32 = 3;
export const S_POSITION: i32 = 4;
export const S_SCALE: i32 = 7;
export const S_CHILD: i32 = 10;
export const S_AXIS: i32 = 13;
export const S_Q0: i32 = 16;
export const S_L0: i32 = 20;
export const S_HIT_RADIUS: i32 = 32;
export const S_STIFFNESS: i32 = 33;
export const S_GRAVITY_POWER: i32 = 34;
export const S_GRAVITY_DIR: i32 = 35;
export const S_DRAG: i32 = 38;
export const S_COLLIDER_START: i32 = 39;
export const S_COLLIDER_COUNT: i32 = 40;
export const S_OWNED_START: i32 = 41;
export const S_OWNED_COUNT: i32 = 42;
export const S_CHILD_JOINT: i32 = 43;
// state, out, ext, colliders
export const STATE: i32 = 9;
export const T_TAIL: i32 = 0;
export const T_PREV: i32 = 3;
export const T_CHILD_WORLD: i32 = 6;
export const OUT: i32 = 32;
export const O_LOCAL: i32 = 4;
export const O_WORLD: i32 = 16;
export const O_EULER: i32 = 28;
export const EXT: i32 = 12;
export const INV: i32 = 13;
export const COLLIDER: i32 = 12;
export const C_KIND: i32 = 0;
export const C_INSIDE: i32 = 1;
export const C_SLOT: i32 = 2;
export const C_RADIUS: i32 = 3;
export const C_OFFSET: i32 = 4;
export const C_VECTOR: i32 = 7;
export const C_OWNER: i32 = 10;
export const KIND_CAPSULE: i32 = 1;
export const KIND_PLANE: i32 = 2;
export const COLLIDER_WORLD: i32 = 8;
// avatars: floats per avatar, its [start, end) of joints, ext slots, colliders and centers
export const AVATAR: i32 = 8;
export const A_JOINTS: i32 = 0;
export const A_SLOTS: i32 = 2;
export const A_COLLIDERS: i32 = 4;
export const A_CENTERS: i32 = 6;

// @ts-ignore: decorator
@inline export function f(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline export function put(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
// @ts-ignore: decorator
@inline export function d(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline export function setD(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
