/**
 * Draws a crowd on a 2D canvas: up to MAX_DRAWN characters in a grid of cells, each as bone
 * segments in a three-quarter orthographic view, plus the path of the first character's right
 * hand over the last second (where a jump shows as a break or as a smooth detour). The joints come
 * from world matrices (ForwardKinematics.worldMatrices: 16 floats a bone, column-major); the End
 * Sites are their parent's world matrix applied to their offset.
 */
import type { Clip } from './clip.js';
import { createWorldPose, forwardKinematics, type WorldPose } from './forward-kinematics.js';

export const MAX_DRAWN = 100;
/** Radians of turn about the vertical axis, so depth shows. */
const YAW = 0.45;
const TRAIL_SAMPLES = 60;
/** Width over height of the space a character takes (arms spread as it spins). */
const CHARACTER_ASPECT = 0.55;

export class CrowdRenderer {
  private readonly context: CanvasRenderingContext2D;
  private readonly world: WorldPose;
  private readonly trail: number[] = [];
  /** Lowest point and vertical extent of the character over the clip, for the scale. */
  private readonly bottom: number;
  private readonly height: number;
  private readonly handSite: number;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly clip: Clip,
  ) {
    this.context = canvas.getContext('2d')!;
    this.world = createWorldPose(clip);
    // The vertical extent over the whole clip (sampled), so no frame leaves its cell.
    let [bottom, top] = [Infinity, -Infinity];
    for (let f = 0; f < clip.frameCount; f += 8) {
      forwardKinematics(clip, clip.rotations, clip.positions, f * clip.bones, 0, 0, this.world);
      for (const array of [this.world.bones, this.world.endSites]) {
        for (let i = 1; i < array.length; i += 3) [bottom, top] = [Math.min(bottom, array[i]!), Math.max(top, array[i]!)];
      }
    }
    this.bottom = bottom;
    this.height = top - bottom;
    const hand = clip.names.indexOf('rhand');
    this.handSite = Math.max(0, Array.from(clip.endSiteParents).indexOf(hand));
  }

  /**
   * Draws the first min(count, MAX_DRAWN) characters whose bones' world matrices start at
   * character `first` of `worldMatrices`.
   */
  draw(worldMatrices: Float32Array, first: number, count: number): void {
    const { context: g, canvas, clip, world } = this;
    const drawn = Math.min(count, MAX_DRAWN);
    // As many columns as make cells about as wide as a character for their height.
    const columns = Math.min(drawn, Math.ceil(Math.sqrt((drawn * canvas.width) / canvas.height / CHARACTER_ASPECT)));
    const rows = Math.ceil(drawn / columns);
    const cellW = canvas.width / columns;
    const cellH = canvas.height / rows;
    const scale = (0.85 * Math.min(cellH, cellW / CHARACTER_ASPECT)) / this.height;
    const [cos, sin] = [Math.cos(YAW), Math.sin(YAW)];
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.lineCap = 'round';
    for (let c = 0; c < drawn; c++) {
      const cx = ((c % columns) + 0.5) * cellW;
      const base = (Math.floor(c / columns) + 0.95) * cellH;
      const project = (array: Float32Array, i: number): [number, number] => [
        cx + scale * (array[i]! * cos + array[i + 2]! * sin),
        base - scale * (array[i + 1]! - this.bottom),
      ];
      jointsFromMatrices(clip, worldMatrices, (first + c) * clip.bones, world);
      g.strokeStyle = '#334155';
      g.lineWidth = Math.max(1, scale * 4);
      g.beginPath();
      for (let b = 0; b < clip.bones; b++) {
        const p = clip.parents[b]!;
        if (p >= 0) segment(g, project(world.bones, 3 * p), project(world.bones, 3 * b));
      }
      for (let e = 0; e < clip.endSiteParents.length; e++) {
        segment(g, project(world.bones, 3 * clip.endSiteParents[e]!), project(world.endSites, 3 * e));
      }
      g.stroke();
      if (c === 0) this.drawTrail(project(world.endSites, 3 * this.handSite));
    }
  }

  private drawTrail(hand: [number, number]): void {
    const g = this.context;
    this.trail.push(...hand);
    if (this.trail.length > 2 * TRAIL_SAMPLES) this.trail.splice(0, 2);
    g.strokeStyle = '#e11d48';
    g.lineWidth = 2;
    g.beginPath();
    for (let i = 0; i < this.trail.length; i += 2) (i === 0 ? g.moveTo : g.lineTo).call(g, this.trail[i]!, this.trail[i + 1]!);
    g.stroke();
  }
}

/** The joints (bone origins and End Sites) of the character whose bone matrices start at bone `bone` of `matrices`. */
export function jointsFromMatrices(clip: Clip, matrices: Float32Array, bone: number, out: WorldPose): void {
  for (let b = 0; b < clip.bones; b++) {
    const m = 16 * (bone + b);
    out.bones[3 * b] = matrices[m + 12]!;
    out.bones[3 * b + 1] = matrices[m + 13]!;
    out.bones[3 * b + 2] = matrices[m + 14]!;
  }
  const o = clip.endSiteOffsets;
  for (let e = 0; e < clip.endSiteParents.length; e++) {
    const m = 16 * (bone + clip.endSiteParents[e]!);
    const [x, y, z] = [o[3 * e]!, o[3 * e + 1]!, o[3 * e + 2]!];
    for (let i = 0; i < 3; i++)
      out.endSites[3 * e + i] = matrices[m + i]! * x + matrices[m + 4 + i]! * y + matrices[m + 8 + i]! * z + matrices[m + 12 + i]!;
  }
}

function segment(g: CanvasRenderingContext2D, [x0, y0]: [number, number], [x1, y1]: [number, number]): void {
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
}
