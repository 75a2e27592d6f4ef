// Writes test/fixtures/vrm/tiny-avatar.vrm, the VRM 1.0 avatar of the README's VRM recipe and of
// test/vrm/vrm-loader-plugin.node.test.ts: node scripts/make-test-vrm.mjs
// (`--check` compares the committed file with what this script makes, and fails if they differ.)
//
// No VRM model ships with the repository's dependencies, so this builds a small one from scratch:
// a binary glTF (glb) with
// - a humanoid skeleton of the 15 bones VRMC_vrm requires, plus chest and neck, in metres, facing +Z;
// - one skinned mesh: a small box around every bone, each bound to its bone (weight 1);
// - VRMC_vrm 1.0 (meta with the VRM Public License 1.0 URL, the humanoid's bone map);
// - VRMC_springBone 1.0: four chains (two side locks of hair, a ponytail and a tail), colliders of both
//   shapes (spheres on the head and hips, capsules along the spine and the upper legs) in three
//   collider groups, per-joint stiffness, gravity, drag and hit radius, and a center on one chain.
// Everything is built from constants, so the bytes are the same on every run.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** @typedef {{ name: string, parent: string | null, t: number[] }} Node */
/**
 * A node: its name, its parent's name, its translation from the parent (m). Rest rotations are the identity.
 * @param {string} name @param {string | null} parent @param {number[]} t
 * @returns {Node}
 */
const bone = (name, parent, t) => ({ name, parent, t });
const BONES = [
  bone('Armature', null, [0, 0, 0]),
  bone('hips', 'Armature', [0, 0.95, 0]),
  bone('spine', 'hips', [0, 0.12, 0]),
  bone('chest', 'spine', [0, 0.16, 0]),
  bone('neck', 'chest', [0, 0.2, 0]),
  bone('head', 'neck', [0, 0.1, 0]),
  bone('leftUpperArm', 'chest', [0.17, 0.15, 0]),
  bone('leftLowerArm', 'leftUpperArm', [0.26, 0, 0]),
  bone('leftHand', 'leftLowerArm', [0.23, 0, 0]),
  bone('rightUpperArm', 'chest', [-0.17, 0.15, 0]),
  bone('rightLowerArm', 'rightUpperArm', [-0.26, 0, 0]),
  bone('rightHand', 'rightLowerArm', [-0.23, 0, 0]),
  bone('leftUpperLeg', 'hips', [0.09, -0.06, 0]),
  bone('leftLowerLeg', 'leftUpperLeg', [0, -0.41, 0]),
  bone('leftFoot', 'leftLowerLeg', [0, -0.4, 0]),
  bone('rightUpperLeg', 'hips', [-0.09, -0.06, 0]),
  bone('rightLowerLeg', 'rightUpperLeg', [0, -0.41, 0]),
  bone('rightFoot', 'rightLowerLeg', [0, -0.4, 0]),
  bone('hairL0', 'head', [0.07, 0.09, 0.02]),
  bone('hairL1', 'hairL0', [0.01, -0.07, 0]),
  bone('hairL2', 'hairL1', [0, -0.07, 0.01]),
  bone('hairL3', 'hairL2', [0, -0.06, 0]),
  bone('hairR0', 'head', [-0.07, 0.09, 0.02]),
  bone('hairR1', 'hairR0', [-0.01, -0.07, 0]),
  bone('hairR2', 'hairR1', [0, -0.07, 0.01]),
  bone('hairR3', 'hairR2', [0, -0.06, 0]),
  bone('ponytail0', 'head', [0, 0.12, -0.09]),
  bone('ponytail1', 'ponytail0', [0, -0.02, -0.08]),
  bone('ponytail2', 'ponytail1', [0, -0.08, -0.03]),
  bone('ponytail3', 'ponytail2', [0, -0.08, -0.01]),
  bone('ponytail4', 'ponytail3', [0, -0.07, 0]),
  bone('tail0', 'hips', [0, -0.02, -0.11]),
  bone('tail1', 'tail0', [0, -0.03, -0.1]),
  bone('tail2', 'tail1', [0, -0.04, -0.1]),
  bone('tail3', 'tail2', [0, -0.05, -0.09]),
  bone('tail4', 'tail3', [0, -0.05, -0.08]),
];
/** VRMC_vrm's humanoid: every human bone of the skeleton above has the same name as its node. */
const HUMAN_BONES = BONES.slice(1, 18).map((b) => b.name);

/** Colliders: the node each hangs from, and its shape (in the node's space). */
const COLLIDERS = [
  { node: 'head', shape: { sphere: { offset: [0, 0.08, 0], radius: 0.1 } } },
  { node: 'hips', shape: { sphere: { offset: [0, 0, -0.02], radius: 0.13 } } },
  { node: 'spine', shape: { capsule: { offset: [0, 0, 0], tail: [0, 0.34, 0], radius: 0.12 } } },
  { node: 'leftUpperLeg', shape: { capsule: { offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.07 } } },
  { node: 'rightUpperLeg', shape: { capsule: { offset: [0, 0, 0], tail: [0, -0.4, 0], radius: 0.07 } } },
];
const COLLIDER_GROUPS = [
  { name: 'head', colliders: [0] },
  { name: 'body', colliders: [1, 2] },
  { name: 'legs', colliders: [3, 4] },
];
/** Springs: the joint nodes (the last is the tip, with no settings), settings per joint, collider groups, center. */
const SPRINGS = [
  { name: 'hairL', prefix: 'hairL', count: 4, stiffness: 1.4, gravity: 0.5, drag: 0.4, radius: 0.02, groups: [0, 1] },
  { name: 'hairR', prefix: 'hairR', count: 4, stiffness: 1.1, gravity: 0.6, drag: 0.45, radius: 0.02, groups: [0, 1] },
  { name: 'ponytail', prefix: 'ponytail', count: 5, stiffness: 0.8, gravity: 0.4, drag: 0.3, radius: 0.03, groups: [0, 1], center: 'hips' },
  { name: 'tail', prefix: 'tail', count: 5, stiffness: 2, gravity: 0.2, drag: 0.5, radius: 0.04, groups: [1, 2] },
];

/** @param {string} name */
const index = (name) => {
  const i = BONES.findIndex((b) => b.name === name);
  if (i < 0) throw new Error(`make-test-vrm: no node ${name}`);
  return i;
};

/** The rest-pose world position of every bone (translations only). */
function worldPositions() {
  /** @type {number[][]} */
  const world = [];
  for (const { parent, t } of BONES) {
    const p = parent === null ? [0, 0, 0] : /** @type {number[]} */ (world[index(parent)]);
    world.push([p[0] + t[0], p[1] + t[1], p[2] + t[2]]);
  }
  return world;
}

/**
 * The skinned mesh: a box of half-size h around every bone but the armature, bound to that bone.
 * @param {number[][]} world
 */
function mesh(world) {
  const positions = [],
    joints = [],
    weights = [],
    indices = [];
  const corners = [-1, 1];
  for (let b = 1; b < BONES.length; b++) {
    const { name } = BONES[b];
    const h = name.startsWith('hair') || name.startsWith('ponytail') ? 0.015 : 0.035;
    const first = positions.length / 3;
    for (const x of corners)
      for (const y of corners) for (const z of corners) positions.push(world[b][0] + x * h, world[b][1] + y * h, world[b][2] + z * h);
    for (let v = 0; v < 8; v++) {
      joints.push(b - 1, 0, 0, 0); // skin joint j is node j + 1 (the armature is not a joint)
      weights.push(1, 0, 0, 0);
    }
    // corner (x, y, z) is at first + 4·[x>0] + 2·[y>0] + [z>0]; two counter-clockwise triangles a face
    const faces = [
      [0, 1, 3, 2], // −x
      [4, 6, 7, 5], // +x
      [0, 4, 5, 1], // −y
      [2, 3, 7, 6], // +y
      [0, 2, 6, 4], // −z
      [1, 5, 7, 3], // +z
    ];
    for (const [a, b2, c, d] of faces) indices.push(first + a, first + b2, first + c, first + a, first + c, first + d);
  }
  return { positions, joints, weights, indices };
}

/** The glb bytes. */
export function makeTestVrm() {
  const world = worldPositions();
  const { positions, joints, weights, indices } = mesh(world);
  const inverseBinds = [];
  for (let b = 1; b < BONES.length; b++) inverseBinds.push(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -world[b][0], -world[b][1], -world[b][2], 1);

  // the binary chunk: each array 4-byte aligned, one buffer view each
  const arrays = [
    new Float32Array(positions),
    new Uint16Array(joints),
    new Float32Array(weights),
    new Uint16Array(indices),
    new Float32Array(inverseBinds),
  ];
  /** @type {{ buffer: number, byteOffset: number, byteLength: number, target?: number }[]} */
  const views = [];
  let length = 0;
  for (const a of arrays) {
    views.push({ buffer: 0, byteOffset: length, byteLength: a.byteLength });
    length += (a.byteLength + 3) & ~3;
  }
  const bin = new Uint8Array(length);
  arrays.forEach((a, i) => bin.set(new Uint8Array(a.buffer), views[i].byteOffset));
  views[0].target = views[1].target = views[2].target = 34962; // ARRAY_BUFFER
  views[3].target = 34963; // ELEMENT_ARRAY_BUFFER

  const min = [0, 1, 2].map((c) => Math.min(...positions.filter((_, i) => i % 3 === c)));
  const max = [0, 1, 2].map((c) => Math.max(...positions.filter((_, i) => i % 3 === c)));
  const vertices = positions.length / 3;
  const skinJoints = BONES.slice(1).map((_, b) => b + 1);
  /** @type {{ name: string, translation?: number[], children?: number[], mesh?: number, skin?: number }[]} */
  const nodes = BONES.map(({ name, t }) => {
    const children = BONES.flatMap((b, i) => (b.parent === name ? [i] : []));
    return { name, ...(t.some((x) => x !== 0) ? { translation: t } : {}), ...(children.length ? { children } : {}) };
  });
  nodes.push({ name: 'Body', mesh: 0, skin: 0 });

  const json = {
    asset: { version: '2.0', generator: 'spring-solver scripts/make-test-vrm.mjs' },
    extensionsUsed: ['VRMC_vrm', 'VRMC_springBone'],
    scene: 0,
    scenes: [{ name: 'Scene', nodes: [0, nodes.length - 1] }],
    nodes,
    meshes: [
      {
        name: 'Body',
        primitives: [{ attributes: { POSITION: 0, JOINTS_0: 1, WEIGHTS_0: 2 }, indices: 3, material: 0 }],
      },
    ],
    materials: [{ name: 'Body', pbrMetallicRoughness: { baseColorFactor: [0.85, 0.55, 0.4, 1], metallicFactor: 0, roughnessFactor: 0.8 } }],
    skins: [{ inverseBindMatrices: 4, joints: skinJoints, skeleton: 1 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: vertices, type: 'VEC3', min, max },
      { bufferView: 1, componentType: 5123, count: vertices, type: 'VEC4' },
      { bufferView: 2, componentType: 5126, count: vertices, type: 'VEC4' },
      { bufferView: 3, componentType: 5123, count: indices.length, type: 'SCALAR' },
      { bufferView: 4, componentType: 5126, count: skinJoints.length, type: 'MAT4' },
    ],
    bufferViews: views,
    buffers: [{ byteLength: bin.length }],
    extensions: {
      VRMC_vrm: {
        specVersion: '1.0',
        meta: {
          name: 'spring-solver test avatar',
          version: '1',
          authors: ['spring-solver contributors'],
          licenseUrl: 'https://vrm.dev/licenses/1.0/',
          avatarPermission: 'everyone',
          allowExcessivelyViolentUsage: false,
          allowExcessivelySexualUsage: false,
          commercialUsage: 'corporation',
          allowPoliticalOrReligiousUsage: false,
          allowAntisocialOrHateUsage: false,
          creditNotation: 'unnecessary',
          allowRedistribution: true,
          modification: 'allowModificationRedistribution',
        },
        humanoid: { humanBones: Object.fromEntries(HUMAN_BONES.map((name) => [name, { node: index(name) }])) },
      },
      VRMC_springBone: {
        specVersion: '1.0',
        colliders: COLLIDERS.map(({ node, shape }) => ({ node: index(node), shape })),
        colliderGroups: COLLIDER_GROUPS,
        springs: SPRINGS.map((s) => ({
          name: s.name,
          joints: Array.from({ length: s.count }, (_, j) =>
            j === s.count - 1
              ? { node: index(`${s.prefix}${j}`) }
              : {
                  node: index(`${s.prefix}${j}`),
                  hitRadius: s.radius,
                  stiffness: s.stiffness * (1 - 0.15 * j),
                  gravityPower: s.gravity,
                  gravityDir: [0, -1, 0],
                  dragForce: s.drag + 0.05 * j,
                },
          ),
          colliderGroups: s.groups,
          ...(s.center ? { center: index(s.center) } : {}),
        })),
      },
    },
  };

  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonChunk = new Uint8Array((text.length + 3) & ~3).fill(0x20);
  jsonChunk.set(text);
  const glb = new Uint8Array(12 + 8 + jsonChunk.length + 8 + bin.length);
  const view = new DataView(glb.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, glb.length, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  glb.set(jsonChunk, 20);
  view.setUint32(20 + jsonChunk.length, bin.length, true);
  view.setUint32(24 + jsonChunk.length, 0x004e4942, true); // 'BIN\0'
  glb.set(bin, 28 + jsonChunk.length);
  return glb;
}

export const TEST_VRM = new URL('../test/fixtures/vrm/tiny-avatar.vrm', import.meta.url);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bytes = makeTestVrm();
  if (process.argv.includes('--check')) {
    if (!Buffer.from(bytes).equals(readFileSync(TEST_VRM))) {
      console.error(`${TEST_VRM.pathname} differs from what scripts/make-test-vrm.mjs makes: run it without --check`);
      process.exit(1);
    }
    console.log(`${TEST_VRM.pathname} is up to date (${bytes.length} bytes)`);
  } else {
    writeFileSync(TEST_VRM, bytes);
    console.log(`wrote ${TEST_VRM.pathname} (${bytes.length} bytes)`);
  }
}
