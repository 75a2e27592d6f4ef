/**
 * The smallest call, in elements, that a threaded solver splits, per kernel export: below it the
 * calling thread runs the call alone, since waking the workers costs more than their share saves.
 * Measured with `node bench/thresholds.js` on 2 cores: the smallest power of two from which every
 * larger size ran ≥ 1.05× faster split (docs/DECISIONS.md, "Threads").
 */

const MEASURED: Record<string, number> = {
  // core springs and dampers, uniform parameters: a few loads and stores an element
  springUniform: 16384,
  damperUniform: 65536,
  // per-element parameters: an exp (and more) an element
  springPerElement: 4096,
  damperVarying: 2048,
  // prepared calls' kept coefficients (and the keeping springPerElement: the two must split alike)
  springApplyKept: 8192,
  // quaternion springs (elements: quaternions) and Inertializer.update (elements: bones)
  quatSimpleSpringDamper: 512,
  quatDecaySpringDamper: 512,
  quatInertializeUpdate: 512,
  poseInertializeUpdate: 512,
  // ForwardKinematics and SkeletonBatch (elements: characters, about 0.7 µs each at 25 bones; chunks of 16:
  // 32 characters make the first call of two chunks, 1.72×; 16 make one, 0.93×)
  forwardKinematics: 32,
  // MixerBatch (elements: mixers, about 2 µs each for a pirouette; `node bench/thresholds.js --only sampleMixers`,
  // two runs: 16 mixers 0.89–1.02×, 32 1.57–1.72×, 128 1.79–1.98×, 1,000 1.61–1.64×)
  sampleMixers: 32,
  // the pose gather of InertializedMixerGroup and SkeletonBatch over a MixerBatch (elements: mixers, 0.1–0.4 µs each;
  // `node bench/thresholds.js --only gatherPose`, one pass: 2,048 mixers 0.96×, 4,096 1.08×, 10,000 1.49×)
  gatherPose: 4096,
  // spring-solver/three: InstancedSprings (elements: instances), springStrided of widths other than 3 (elements: floats)
  springInstanceTranslations: 8192,
  composeInstanceMatrices: 2048,
  springStrided: 4096,
  // springStrided with items of 3 (SIMD groups of 4; elements: items): 8,192 1.13–1.24×, 65,536 1.68–1.69×
  springStrided3: 8192,
  // SpringBones.update's kernel (elements: rows of a span, a manager each, about 27 µs at 87 joints; 1 row split: 0.93×)
  springBonesStep: 2,
};

/** Every other kernel of the contract: measured on the cheapest, doubleSpringDamper with uniform parameters. */
const OTHER = 65536;

/** The smallest element count `kernel` is split at. */
export function splitMinimum(kernel: string): number {
  return MEASURED[kernel] ?? OTHER;
}
