/**
 * A crowd playing the clip, each character from its own start, looping. Every frame it writes
 * the pose being played into `input` (solver memory, character-major, as the Inertializer takes
 * it); when characters switch frames discontinuously (a jump, or the loop point), it also writes
 * `source`: the pose each character was leaving, which a transition needs (a character that does
 * not switch has the same pose in both).
 */
import type { Pose, Solver } from 'spring-solver';
import type { Clip } from './clip.js';

/** s between the starts of consecutive characters, so neighbours do not move in step. */
const START_STAGGER = 0.37;
/** A jump moves every playhead this fraction of the clip forward. */
const JUMP_FRACTION = 0.4;

const FIELDS = [
  ['positions', 3],
  ['rotations', 4],
  ['velocities', 3],
  ['angularVelocities', 3],
] as const;

export class Crowd {
  readonly input: Pose;
  readonly source: Pose;
  /** s into the clip, per character */
  private readonly times: Float64Array;
  private readonly sourceFrames: Int32Array;
  private readonly inputFrames: Int32Array;
  private readonly duration: number;

  constructor(
    readonly clip: Clip,
    readonly count: number,
    private readonly solver: Solver,
  ) {
    this.duration = clip.frameCount * clip.frameTime;
    this.times = Float64Array.from({ length: count }, (_, c) => (c * START_STAGGER) % this.duration);
    this.sourceFrames = new Int32Array(count);
    this.inputFrames = new Int32Array(count);
    this.input = this.allocPose();
    this.source = this.allocPose();
    this.inputFrames.set(this.times.map((t) => this.frameAt(t)));
    this.gather(this.input, this.inputFrames);
  }

  /** Advances every playhead by dt (s), jumping if asked; returns true when some character switched (then `source` is filled). */
  advance(dt: number, jump: boolean): boolean {
    let switched = false;
    for (let c = 0; c < this.count; c++) {
      const continued = this.times[c]! + dt;
      const switches = jump || continued >= this.duration;
      this.times[c] = (continued + (jump ? JUMP_FRACTION * this.duration : 0)) % this.duration;
      this.inputFrames[c] = this.frameAt(this.times[c]!);
      // What a switching character leaves: the clip continued without the switch (held on its
      // last frame past the end). A character that does not switch leaves what it plays.
      this.sourceFrames[c] = switches ? this.frameAt(Math.min(continued, this.duration - this.clip.frameTime)) : this.inputFrames[c]!;
      switched ||= switches;
    }
    if (switched) this.gather(this.source, this.sourceFrames);
    this.gather(this.input, this.inputFrames);
    return switched;
  }

  dispose(): void {
    for (const pose of [this.input, this.source]) for (const [field] of FIELDS) this.solver.free(pose[field]);
  }

  private frameAt(time: number): number {
    return Math.min(this.clip.frameCount - 1, Math.floor(time / this.clip.frameTime));
  }

  private allocPose(): Pose {
    const n = this.count * this.clip.bones;
    return Object.fromEntries(FIELDS.map(([field, width]) => [field, this.solver.alloc(width * n)])) as unknown as Pose;
  }

  /** Copies each character's frame of the clip into `pose`. */
  private gather(pose: Pose, frames: Int32Array): void {
    const { bones } = this.clip;
    for (const [field, width] of FIELDS) {
      const from = this.clip[field];
      const to = pose[field];
      const span = width * bones;
      for (let c = 0; c < this.count; c++) to.set(from.subarray(frames[c]! * span, (frames[c]! + 1) * span), c * span);
    }
  }
}
