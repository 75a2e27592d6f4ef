/**
 * SpringBones on managers built by three-vrm's own loader (VRMSpringBoneLoaderPlugin through three's
 * GLTFLoader) from glTF JSON written here: a VRM 1.0 file (VRMC_springBone, with the extended
 * colliders: inside sphere, inside capsule, plane; a center) and a VRM 0.x file (secondaryAnimation:
 * bone groups whose subtrees become joints, a branch, child-less ends with the 7 cm rule). Each file
 * is loaded twice; one copy runs three-vrm's manager.update, the other SpringBones, and their joints
 * must agree exactly on every backend.
 */
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMSpringBoneLoaderPlugin, type VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { SpringBones } from '../../dist/vrm/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { TwinJoints } from '../helpers/twin-joints.js';

const solvers = useSolvers();

/** The skeleton both files share: root → hips → spine → head, a hair strand of four, a branching strand, a skirt strand. */
const NODES = [
  { name: 'root', children: [1] },
  { name: 'hips', translation: [0, 0.9, 0], children: [2, 11] },
  { name: 'spine', translation: [0, 0.4, 0], children: [3] },
  { name: 'head', translation: [0, 0.3, 0], children: [4, 8] },
  { name: 'hairA0', translation: [0.04, 0.1, -0.08], rotation: [0.05, 0, 0, 0.99875], children: [5] },
  { name: 'hairA1', translation: [0, -0.07, -0.02], children: [6] },
  { name: 'hairA2', translation: [0, -0.07, -0.01], children: [7] },
  { name: 'hairA3', translation: [0, -0.06, 0] },
  { name: 'hairB0', translation: [-0.04, 0.1, -0.08], children: [9, 10] },
  { name: 'hairB1', translation: [0, -0.08, -0.02] },
  { name: 'hairB1b', translation: [-0.03, -0.06, 0] },
  { name: 'skirt0', translation: [0.1, -0.05, 0.05], children: [12] },
  { name: 'skirt1', translation: [0.02, -0.15, 0.02], children: [13] },
  { name: 'skirt2', translation: [0.01, -0.15, 0.01] },
];

const VRM1 = {
  asset: { version: '2.0' },
  extensionsUsed: ['VRMC_springBone', 'VRMC_springBone_extended_collider'],
  scene: 0,
  scenes: [{ nodes: [0] }],
  nodes: NODES,
  extensions: {
    VRMC_springBone: {
      specVersion: '1.0',
      colliders: [
        { node: 3, shape: { sphere: { offset: [0, 0.08, 0], radius: 0.11 } } },
        { node: 1, shape: { capsule: { offset: [0.1, -0.1, 0], tail: [0.1, -0.5, 0.05], radius: 0.07 } } },
        {
          node: 2,
          shape: { sphere: { offset: [0, 0, 0], radius: 0 } },
          extensions: {
            VRMC_springBone_extended_collider: { specVersion: '1.0', shape: { plane: { offset: [0, 0, -0.12], normal: [0, 0, 1] } } },
          },
        },
        {
          node: 3,
          shape: { sphere: { offset: [0, 0, 0], radius: 0 } },
          extensions: {
            VRMC_springBone_extended_collider: {
              specVersion: '1.0',
              shape: { sphere: { offset: [0, -0.05, -0.05], radius: 0.3, inside: true } },
            },
          },
        },
        {
          node: 1,
          shape: { sphere: { offset: [0, 0, 0], radius: 0 } },
          extensions: {
            VRMC_springBone_extended_collider: {
              specVersion: '1.0',
              shape: { capsule: { offset: [0, 0, 0], tail: [0, -0.6, 0], radius: 0.35, inside: true } },
            },
          },
        },
      ],
      colliderGroups: [{ colliders: [0, 2, 3] }, { colliders: [1, 4] }],
      springs: [
        {
          name: 'hairA',
          joints: [
            { node: 4, stiffness: 1.5, dragForce: 0.4, gravityPower: 0.6, hitRadius: 0.02, gravityDir: [0, -1, 0] },
            { node: 5, stiffness: 1.2, dragForce: 0.45, gravityPower: 0.6, hitRadius: 0.02 },
            { node: 6, stiffness: 1, dragForce: 0.5, gravityPower: 0.7, hitRadius: 0.015 },
            { node: 7 },
          ],
          colliderGroups: [0],
          center: 0,
        },
        {
          name: 'hairB',
          joints: [{ node: 8, stiffness: 2, dragForce: 0.3, gravityPower: 0.3, hitRadius: 0.03 }, { node: 9 }],
          colliderGroups: [0],
        },
        {
          name: 'skirt',
          joints: [{ node: 11, stiffness: 3, dragForce: 0.5, gravityPower: 0.2, hitRadius: 0.02 }, { node: 12 }, { node: 13 }],
          colliderGroups: [1],
          center: 1,
        },
      ],
    },
  },
};

const VRM0 = {
  asset: { version: '2.0' },
  extensionsUsed: ['VRM'],
  scene: 0,
  scenes: [{ nodes: [0] }],
  nodes: NODES,
  extensions: {
    VRM: {
      secondaryAnimation: {
        colliderGroups: [
          { node: 3, colliders: [{ offset: { x: 0, y: 0.08, z: 0 }, radius: 0.11 }] },
          { node: 1, colliders: [{ offset: { x: 0.1, y: -0.2, z: 0 }, radius: 0.08 }] },
        ],
        boneGroups: [
          // the whole subtree of each listed bone becomes joints (hairB0 branches; leaves have no child: the 7 cm rule)
          {
            stiffiness: 1.5,
            gravityPower: 0.5,
            gravityDir: { x: 0, y: -1, z: 0 },
            dragForce: 0.4,
            center: -1,
            hitRadius: 0.02,
            bones: [4, 8],
            colliderGroups: [0],
          },
          {
            stiffiness: 2.5,
            gravityPower: 0.2,
            gravityDir: { x: 0.2, y: -0.98, z: 0 },
            dragForce: 0.5,
            center: 0,
            hitRadius: 0.03,
            bones: [11],
            colliderGroups: [1],
          },
        ],
      },
    },
  },
};

/** Loads `json` with three's GLTFLoader and three-vrm's spring-bone plugin: its scene and manager. */
function load(json: object): Promise<{ scene: Object3D; manager: VRMSpringBoneManager }> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
  return new Promise((resolve, reject) => {
    loader.parse(
      JSON.stringify(json),
      '',
      (gltf) => resolve({ scene: gltf.scene, manager: gltf.userData.vrmSpringBoneManager as VRMSpringBoneManager }),
      reject,
    );
  });
}

/** Walks, turns and nods; the hips sway. */
function pose(scene: Object3D, t: number): void {
  const root = scene.getObjectByName('root')!;
  const hips = scene.getObjectByName('hips')!;
  const head = scene.getObjectByName('head')!;
  root.position.set(Math.sin(0.7 * t) * 2, 0.05 * Math.sin(6 * t), 1.2 * t);
  root.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.9 * Math.sin(0.5 * t));
  hips.quaternion.setFromAxisAngle(new Vector3(0, 0, 1), 0.25 * Math.sin(3 * t));
  head.quaternion.copy(new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.6 * Math.sin(2.3 * t)));
}

describe.each([
  ['VRM 1.0', VRM1],
  ['VRM 0.x', VRM0],
] as const)('SpringBones on managers from three-vrm’s loader: %s', (_name, json) => {
  it.each(BACKENDS)('%s: every joint equals three-vrm’s over 300 frames', async (backend) => {
    const theirs = await load(json);
    const ours = await load(json);
    const joints = [...ours.manager.joints];
    expect(joints.length).toBe(json === VRM1 ? 6 : 10); // VRM 1.0: a joint per node but the last of a spring; 0.x: every node of the subtrees
    const bones = new SpringBones(solvers[backend], [ours.manager]);
    const twins = new TwinJoints([...theirs.manager.joints], joints);
    for (let f = 0; f < 300; f++) {
      const dt = f < 150 ? 1 / 60 : 1 / 144 + ((f * 37) % 10) / 10 / 30;
      pose(theirs.scene, f / 60);
      pose(ours.scene, f / 60);
      theirs.manager.update(dt);
      bones.update(dt);
      twins.compare(f);
    }
    expect(twins.differences.slice(0, 3)).toEqual([]);
    expect(twins.moved).toBeGreaterThan(0.2);
    bones.dispose();
  });
});
