/**
 * The parts of @pixiv/three-vrm-springbone (3.5.x) that SpringBones reads, as structural types:
 * its managers, joints and colliders fit them. Its own declarations use extensionless relative
 * imports, which a consumer's `moduleResolution: nodenext` cannot follow (every name resolves to
 * nothing), so spring-solver's declarations do not import them (docs/DECISIONS.md, "Spring bones").
 */
import type { Object3D } from 'three';

/**
 * @group VRM types
 */
export interface SpringBoneVector {
  x: number;
  y: number;
  z: number;
}

/**
 * A collider shape: `type` 'sphere' or 'capsule' (radius, inside; a capsule's tail) or 'plane' (normal), and an offset.
 * @group VRM types
 */
export interface SpringBoneColliderShape {
  readonly type: string;
  offset?: SpringBoneVector;
  radius?: number;
  inside?: boolean;
  tail?: SpringBoneVector;
  normal?: SpringBoneVector;
}

/**
 * A VRMSpringBoneCollider: an Object3D with a shape.
 * @group VRM types
 */
export type SpringBoneCollider = Object3D & { readonly shape: SpringBoneColliderShape };

/**
 * @group VRM types
 */
export interface SpringBoneColliderGroup {
  colliders: readonly SpringBoneCollider[];
}

/**
 * @group VRM types
 */
export interface SpringBoneSettings {
  hitRadius: number;
  stiffness: number;
  gravityPower: number;
  gravityDir: SpringBoneVector;
  dragForce: number;
}

/**
 * A VRMSpringBoneJoint.
 * @group VRM types
 */
export interface SpringBoneJoint {
  readonly bone: Object3D;
  readonly child: Object3D | null;
  settings: SpringBoneSettings;
  colliderGroups: readonly SpringBoneColliderGroup[];
  get center(): Object3D | null;
  get initialLocalChildPosition(): SpringBoneVector;
}

/**
 * A VRMSpringBoneManager.
 * @group VRM types
 */
export interface SpringBoneManager {
  readonly joints: ReadonlySet<SpringBoneJoint>;
  /**
   * Runs the spring bones for `delta` seconds (replaced by a no-op while a SpringBones holds the manager).
   * @example
   * ```ts
   * import type { SpringBoneManager } from 'spring-solver/vrm';
   * declare const manager: SpringBoneManager;
   * manager.update(1 / 60); // delta 1/60 s
   * ```
   */
  update(delta: number): void;
  /**
   * Puts every joint back in its initial state.
   * @example
   * ```ts
   * import type { SpringBoneManager } from 'spring-solver/vrm';
   * declare const manager: SpringBoneManager;
   * manager.reset();
   * ```
   */
  reset(): void;
  /**
   * Takes the joints' current pose as their initial state.
   * @example
   * ```ts
   * import type { SpringBoneManager } from 'spring-solver/vrm';
   * declare const manager: SpringBoneManager;
   * manager.setInitState();
   * ```
   */
  setInitState(): void;
}
