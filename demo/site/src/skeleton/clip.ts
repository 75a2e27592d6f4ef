/**
 * The pirouette clip: parsed from BVH text with the package's parser (src/bvh/index.ts, built to
 * dist/bvh.js; not a public entry point, so imported by path), as local rotations, positions
 * and finite-difference velocities, frame-major (frame f, bone b at (f·bones + b)·width).
 */
import { bvhLocalPositions, bvhLocalRotations, bvhVelocities, parseBvh } from '../../../../dist/bvh/index.js';

export interface Clip {
  names: string[];
  /** Parent bone per bone (−1 for the root); a parent always comes before its children. */
  parents: Int32Array;
  bones: number;
  frameCount: number;
  /** s per frame */
  frameTime: number;
  rotations: Float32Array;
  positions: Float32Array;
  velocities: Float32Array;
  angularVelocities: Float32Array;
  /** Parent bone of each End Site, and its offset (3 floats each). */
  endSiteParents: Int32Array;
  endSiteOffsets: Float32Array;
}

export async function loadClip(url: string): Promise<Clip> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching ${url} failed with HTTP ${response.status}`);
  const bvh = parseBvh(await response.text());
  const bones = bvh.names.length;
  const rotations = bvhLocalRotations(bvh);
  const positions = bvhLocalPositions(bvh);
  const { velocities, angularVelocities } = bvhVelocities(positions, rotations, bones, bvh.frameTime);
  return {
    names: bvh.names,
    parents: bvh.parents,
    bones,
    frameCount: bvh.frameCount,
    frameTime: bvh.frameTime,
    rotations,
    positions,
    velocities,
    angularVelocities,
    endSiteParents: bvh.endSiteParents,
    endSiteOffsets: bvh.endSiteOffsets,
  };
}
