/**
 * The types of `@pixiv/three-vrm` 3.5.x that the tests use, for the type-check configs (tsconfig.typecheck.json
 * maps the package here with `paths`, for the reason three-vrm-springbone.d.ts gives: the package's own
 * `types/index.d.ts` re-exports files without extensions, which `moduleResolution: NodeNext` does not resolve).
 * Transcribed from its types/*.d.ts (the members the tests use); runtime imports still load the package itself.
 */
import type { Group, Object3D } from 'three';
import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';

export declare class VRMHumanoid {
  /** The bone of the normalized rig that `update()` copies to the model's own bone (VRM 1.0 bone names). */
  getNormalizedBoneNode(name: string): Object3D | null;
  getRawBoneNode(name: string): Object3D | null;
  update(): void;
}

export declare class VRM {
  readonly scene: Group;
  readonly humanoid: VRMHumanoid;
  readonly springBoneManager?: VRMSpringBoneManager;
  /** Humanoid, look-at, expressions, node constraints, spring bones and materials. */
  update(delta: number): void;
}

/** The loader plugin (its options left out): `gltfLoader.register((parser) => new VRMLoaderPlugin(parser))`; `gltf.userData.vrm`. */
export declare class VRMLoaderPlugin implements GLTFLoaderPlugin {
  constructor(parser: GLTFParser);
  get name(): string;
}
