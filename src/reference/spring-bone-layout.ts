/**
 * The flat float64 layout of the spring-bone step, declared once: the float64 reference
 * (spring-bones.ts), the kernel (assembly/vrm/, which imports this file) and SpringBones
 * (src/vrm/) all read these names. Plain integer constants, so that AssemblyScript compiles the
 * same file (each is an i32 there).
 *
 * An affine matrix is 12 floats: three's column-major elements 0 1 2 | 4 5 6 | 8 9 10 | 12 13 14
 * (the linear part's columns, then the translation at M_T); its fourth row is (0, 0, 0, 1).
 *
 * A matrix reference (REF, 3 floats: joint, slot, count) says where the kernel takes an object's
 * world matrix at the moment a joint reads it, as three-vrm reads `object.matrixWorld` then:
 *   joint ≥ 0: W[joint] · E[slot] · E[slot + 1] · … (count local matrices, multiplied left to right,
 *              as three-vrm's walk after that joint leaves them; count 0: W[joint] itself)
 *   joint < 0, slot ≥ 0: E[slot], a world matrix read at the start of the update
 *   both < 0: none (identity, world space, or, for a child, the live position in the state)
 */

/** Floats of an affine matrix, and where its translation starts. */
export const MATRIX = 12;
export const M_T = 9;

/** A matrix reference: joint, slot, count (see above). */
export const REF = 3;
export const R_JOINT = 0;
export const R_SLOT = 1;
export const R_COUNT = 2;

/** Setup floats per joint (read at attach and refresh; settings also every update when they change). */
// | parent REF | child REF | center REF | same bone | has child | child (3) | axis (3) | q0 (4) | L0 (12) | settings (7) | colliders (2) | owned (2) |
export const SETUP = 45;
export const S_PARENT = 0; // the bone's parent
export const S_CHILD_REF = 3; // joint.child (when computed this step; else its position is in the state, read live)
export const S_CENTER = 6; // joint.center; all −1: world space
export const S_SAME_BONE = 9; // the joint that ran before this one on the same bone this step (its quaternion is the bone's), or −1
export const S_HAS_CHILD = 10; // 1: the tail is joint.child; 0: the 7 cm rule
export const S_CHILD = 11; // initialLocalChildPosition (3)
export const S_AXIS = 14; // _boneAxis (3)
export const S_Q0 = 17; // _initialLocalRotation (4)
export const S_L0 = 21; // _initialLocalMatrix (12)
export const S_HIT_RADIUS = 33;
export const S_STIFFNESS = 34;
export const S_GRAVITY_POWER = 35;
export const S_GRAVITY_DIR = 36; // (3)
export const S_DRAG = 39;
export const S_COLLIDER_START = 40; // into the collider list: the joint's colliders, in three-vrm's order
export const S_COLLIDER_COUNT = 41;
export const S_OWNED_START = 42; // into the collider list: the colliders three-vrm moves after this joint (below its bone)
export const S_OWNED_COUNT = 43;
export const S_SPARE = 44;

/** Pose floats per joint: the bone's local transform, read from three.js at every update (the quaternion also written by each step). */
// | position (3) | quaternion (4) | scale (3) | pivot (3) | has pivot |
export const POSE = 14;
export const P_POSITION = 0;
export const P_QUATERNION = 3;
export const P_SCALE = 7;
export const P_PIVOT = 10;
export const P_HAS_PIVOT = 13;

/** State floats per joint: the tail and the previous tail (center space), the child's world position (read live at every update). */
// | tail (3) | prev (3) | child world (3) |
export const STATE = 9;
export const T_TAIL = 0;
export const T_PREV = 3;
export const T_CHILD_WORLD = 6;

/** Output floats per joint: bone.quaternion, bone.matrix, bone.matrixWorld, bone.rotation (XYZ Euler angles). */
// | quaternion (4) | matrix (12) | matrixWorld (12) | euler (3) | spare |
export const OUT = 32;
export const O_QUATERNION = 0;
export const O_LOCAL = 4;
export const O_WORLD = 16;
export const O_EULER = 28;

/** Floats per ext slot: an affine matrix (a world matrix, a colliderMatrix or a local matrix of a link). */
export const EXT = 12;

/** Floats per center inverse: the affine inverse, and at INV_W the w of Vector3.applyMatrix4 through it (1/element 15). */
export const INV = 13;
export const INV_W = 12;

/**
 * Floats per collider: its kind, inside flag, slot (its matrixWorld, or with C_LIVE its colliderMatrix, as
 * the update starts), radius, shape offset, tail (capsule) or normal (plane), and for a collider below a
 * joint bone the local matrices from that bone down to it (moved to world space after each joint on that bone).
 */
// | kind | inside | slot | radius | offset (3) | vector (3) | live | link slot | link count |
export const COLLIDER = 13;
export const C_KIND = 0;
export const C_INSIDE = 1;
export const C_SLOT = 2;
export const C_RADIUS = 3;
export const C_OFFSET = 4;
export const C_VECTOR = 7;
export const C_LIVE = 10;
export const C_LINK_SLOT = 11;
export const C_LINK_COUNT = 12;
export const KIND_SPHERE = 0;
export const KIND_CAPSULE = 1;
export const KIND_PLANE = 2;

/** Floats per collider in world space for one step: the position, the capsule axis or plane normal, the axis's squared length. */
// | position (3) | axis or normal (3) | axis length² | spare |
export const COLLIDER_WORLD = 8;
export const W_POSITION = 0;
export const W_VECTOR = 3;
export const W_LENGTH_SQ = 6;

/** Floats per avatar: its [start, end) of joints, ext slots, colliders and centers. */
export const AVATAR = 8;
export const A_JOINTS = 0;
export const A_SLOTS = 2;
export const A_COLLIDERS = 4;
export const A_CENTERS = 6;
