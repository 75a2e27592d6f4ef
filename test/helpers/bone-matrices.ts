/**
 * three's own skinning matrices of a crowd, and the first difference from them: what the
 * SkeletonBatch tests compare every frame.
 */
import type { Object3D, SkinnedMesh } from 'three';

/** three's frame after its mixers: the renderer's `scene.updateMatrixWorld()`, then every `skeleton.update()` (copies of boneMatrices). */
export function threeBoneMatrices(scene: Object3D, meshes: readonly SkinnedMesh[]): Float32Array[] {
  scene.updateMatrixWorld();
  return meshes.map((mesh) => {
    mesh.skeleton.update();
    return Float32Array.from(mesh.skeleton.boneMatrices!);
  });
}

/** The first difference (Object.is) between the meshes' boneMatrices and `expected`, named, or null. */
export function firstBoneMatrixDifference(got: readonly SkinnedMesh[], expected: readonly Float32Array[]): string | null {
  for (let m = 0; m < got.length; m++) {
    const a = got[m]!.skeleton.boneMatrices!,
      b = expected[m]!;
    for (let i = 0; i < 16 * got[m]!.skeleton.bones.length; i++) {
      if (!Object.is(a[i], b[i])) return `mesh ${m}, bone ${i >> 4}, element ${i & 15}: ${a[i]} vs three's ${b[i]}`;
    }
  }
  return null;
}
