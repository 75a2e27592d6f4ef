/**
 * What each page publishes on `window` for the browser tests (test/demo/demo-site.node.test.ts),
 * typed once for both sides.
 */

/** A uPlot chart's data: x, then one array per series (null: a gap, undefined: no sample there). */
export type PlotData = (number | null | undefined)[][];

export interface SpringsDemoHook {
  /** Ids of the models on the page, in order. */
  models: string[];
  /** The data the chart of model `id` holds: x (s), goal, the values (coarsest dt first), the intermediate target if any. */
  data(id: string): PlotData | undefined;
}

export interface BenchResult {
  backend: string;
  n: number;
  /** The median of the runs. */
  nsPerElement: number;
  min: number;
  max: number;
  /** Each run's median ns per element. */
  runs: number[];
}

export interface BenchDemoHook {
  /** Results of the current run so far. */
  results: BenchResult[];
}

export interface SkeletonDemoHook {
  frames: number;
  jumps: number;
  /** Frames whose joints came from the ForwardKinematics update. */
  jointUpdates: number;
  /** The largest distance (cm) between the joints drawn and the page's per-bone JS forward kinematics of the same poses. */
  jointError(): number;
  /** The largest rotation offset the Inertializer is absorbing, |(x, y, z)| of its quaternion. */
  offsetRotation(): number;
}

export interface ThreeDemoHook {
  frames: number;
  crowdCount(): number;
  /** The backend the crowd runs on. */
  backend(): string;
  cameraPosition(): number[];
  /** The skeleton panel (no blending, crossFadeTo, InertializedMixer). */
  skeleton: { jumps(): number; peakSinceJump(kind: 'none' | 'crossfade' | 'inertialized'): number };
  /** The skinned crowd. */
  crowd: {
    /** What runs the animation frame: the library's pipeline ('batch'), or three's own updates. */
    path(): 'batch' | 'three';
    /** Frames each path ran. */
    updates(path: 'batch' | 'three'): number;
    /** The running path's stages, in order (e.g. MixerBatch, InertializedMixerGroup, SkeletonBatch). */
    stages(): string[];
    /** The MixerBatch's tracks (sampled by its kernel, left to three); null on three's path. */
    tracks(): { kernel: number; three: number } | null;
    /** Clips per character. */
    clips(): number;
    /** Cross-fades started since the page opened. */
    crossFades(): number;
    /** ms per frame of each row (the median of the last frames; sampling NaN where it cannot be told apart). */
    timings(): { sampling: number; inertialization: number; springs: number; scene: number; skinning: number; render: number };
    /** ms of the skinning row per path that ran: 'three.js', 'SkeletonBatch (simd)', 'SkeletonBatch (js)'. */
    skinningMs(): Record<string, number>;
    /** Character c's skinning matrix of bone b, as the renderer reads it (16 floats). */
    boneMatrix(c: number, b: number): number[];
  };
}

export interface SpringBonesDemoHook {
  /** Frames the section drew, and spring-bone updates (simulated frames of the whole crowd) it ran. */
  frames: number;
  updates(): number;
  avatars(): number;
  joints(): number;
  /** What runs the spring bones: every manager's own update, or one SpringBones. */
  mode(): 'three-vrm' | 'springbones';
  /** Hz: the simulation rate. */
  rate(): number;
  fixedStep(): boolean;
  /** The threads SpringBones runs on (more than 1 only on a cross-origin-isolated page). */
  threads(): number;
  /** The smoothed ms of one update of the crowd's spring bones in each mode; NaN until that mode ran. */
  msThreeVrm(): number;
  msSpringBones(): number;
  /** The traced hair tip: seconds simulated since the trace restarted, RMS difference (°) from the 60 Hz run. */
  trace(): { seconds: number; rmsDegrees: number };
}

declare global {
  interface Window {
    threeDemo?: ThreeDemoHook;
    springBonesDemo?: SpringBonesDemoHook;
    springsDemo?: SpringsDemoHook;
    benchDemo?: BenchDemoHook;
    skeletonDemo?: SkeletonDemoHook;
  }
}
