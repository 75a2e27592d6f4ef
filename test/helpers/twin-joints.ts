/**
 * Spring-bone joints of twin scenes, compared after every frame: one twin run by three-vrm's own
 * update, the other by SpringBones, joint for joint. Used by the VRM loader tests.
 */
import type { Quaternion } from 'three';
import type { VRMSpringBoneJoint } from '@pixiv/three-vrm-springbone';

export class TwinJoints {
  /** Every joint of a frame whose quaternion or matrixWorld differs from its twin's in any element. */
  readonly differences: string[] = [];
  /** The largest angle a joint turned from its rest rotation: the comparison is not of bones at rest. */
  moved = 0;
  private readonly rest: Quaternion[];

  constructor(
    private readonly theirs: readonly VRMSpringBoneJoint[],
    private readonly ours: readonly VRMSpringBoneJoint[],
  ) {
    this.rest = ours.map((j) => j.bone.quaternion.clone());
  }

  /** Compares every pair after frame `f`. */
  compare(f: number): void {
    const { theirs: a, ours: b } = this;
    for (let j = 0; j < a.length; j++) {
      const qa = a[j]!.bone.quaternion.toArray(),
        qb = b[j]!.bone.quaternion.toArray();
      const wa = a[j]!.bone.matrixWorld.elements,
        wb = b[j]!.bone.matrixWorld.elements;
      if (qa.some((v, k) => v !== qb[k]) || wa.some((v, k) => v !== wb[k])) this.differences.push(`frame ${f}, ${b[j]!.bone.name}`);
      this.moved = Math.max(this.moved, b[j]!.bone.quaternion.angleTo(this.rest[j]!));
    }
  }
}
