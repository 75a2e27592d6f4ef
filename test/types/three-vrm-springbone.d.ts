/**
 * The types of `@pixiv/three-vrm-springbone` 3.5.x that the tests, fixtures, benchmarks and demos use, for the
 * type-check configs (tsconfig.typecheck.json maps the package here with `paths`). The package's own
 * `types/index.d.ts` re-exports its files without extensions (`export * from './VRMSpringBoneJoint'`), which
 * `moduleResolution: NodeNext` does not resolve in a `"type": "module"` package: every export would be missing.
 * Transcribed from its types/*.d.ts (public members only); runtime imports still load the package itself.
 */
import type { Matrix4, Object3D, Vector3 } from 'three';
import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';

export declare abstract class VRMSpringBoneColliderShape {
  abstract get type(): string;
  /** The offset of the shape from the collider's origin, in its local space. */
  offset?: Vector3;
  abstract calculateCollision(colliderMatrix: Matrix4, objectPosition: Vector3, objectRadius: number, target: Vector3): number;
}

export declare class VRMSpringBoneColliderShapeSphere extends VRMSpringBoneColliderShape {
  get type(): 'sphere';
  offset: Vector3;
  radius: number;
  /** Keeps the spring bones inside the sphere instead. */
  inside: boolean;
  constructor(params?: { radius?: number; offset?: Vector3; inside?: boolean });
  calculateCollision(colliderMatrix: Matrix4, objectPosition: Vector3, objectRadius: number, target: Vector3): number;
}

export declare class VRMSpringBoneColliderShapeCapsule extends VRMSpringBoneColliderShape {
  get type(): 'capsule';
  offset: Vector3;
  tail: Vector3;
  radius: number;
  /** Keeps the spring bones inside the capsule instead. */
  inside: boolean;
  constructor(params?: { radius?: number; offset?: Vector3; tail?: Vector3; inside?: boolean });
  calculateCollision(colliderMatrix: Matrix4, objectPosition: Vector3, objectRadius: number, target: Vector3): number;
}

export declare class VRMSpringBoneColliderShapePlane extends VRMSpringBoneColliderShape {
  get type(): 'plane';
  offset: Vector3;
  normal: Vector3;
  constructor(params?: { offset?: Vector3; normal?: Vector3 });
  calculateCollision(colliderMatrix: Matrix4, objectPosition: Vector3, objectRadius: number, target: Vector3): number;
}

export declare class VRMSpringBoneCollider extends Object3D {
  readonly shape: VRMSpringBoneColliderShape;
  /** The world matrix of the shape (offset applied), updated by `updateWorldMatrix`. */
  readonly colliderMatrix: Matrix4;
  constructor(shape: VRMSpringBoneColliderShape);
  updateWorldMatrix(updateParents: boolean, updateChildren: boolean): void;
}

export interface VRMSpringBoneColliderGroup {
  colliders: VRMSpringBoneCollider[];
  name?: string;
}

export interface VRMSpringBoneJointSettings {
  hitRadius: number;
  stiffness: number;
  gravityPower: number;
  gravityDir: Vector3;
  dragForce: number;
}

export declare class VRMSpringBoneJoint {
  settings: VRMSpringBoneJointSettings;
  colliderGroups: VRMSpringBoneColliderGroup[];
  readonly bone: Object3D;
  readonly child: Object3D | null;
  get dependencies(): Set<Object3D>;
  get center(): Object3D | null;
  set center(center: Object3D | null);
  get initialLocalChildPosition(): Vector3;
  constructor(
    bone: Object3D,
    child: Object3D | null,
    settings?: Partial<VRMSpringBoneJointSettings>,
    colliderGroups?: VRMSpringBoneColliderGroup[],
  );
  setInitState(): void;
  reset(): void;
  update(delta: number): void;
}

export declare class VRMSpringBoneManager {
  get joints(): Set<VRMSpringBoneJoint>;
  get colliderGroups(): VRMSpringBoneColliderGroup[];
  get colliders(): VRMSpringBoneCollider[];
  addJoint(joint: VRMSpringBoneJoint): void;
  deleteJoint(joint: VRMSpringBoneJoint): void;
  setInitState(): void;
  reset(): void;
  update(delta: number): void;
}

/** The loader plugin (its options left out): `gltfLoader.register((parser) => new VRMSpringBoneLoaderPlugin(parser))`. */
export declare class VRMSpringBoneLoaderPlugin implements GLTFLoaderPlugin {
  static readonly EXTENSION_NAME: 'VRMC_springBone';
  constructor(parser: GLTFParser);
  get name(): string;
}
