/**
 * One model stepped at one fixed dt, keeping the samples of the last few seconds for its plot.
 * Step k ends at t0 + k·dt (computed by multiplication, not accumulated), and the goal it holds
 * is the goal at the step's start.
 */
import type { GoalTrack } from './goal-track.js';
import type { ModelState, SpringModel } from './models.js';
import type { SpringParams } from './params.js';

/** A value beyond this is a diverged integrator: the trace restarts at rest on the goal. */
const DIVERGED = 1e3;
/** s: see GoalTrack; a step is due when its end is at most this after the clock. */
const TIME_EPSILON = 1e-9;

export class Trace {
  readonly t: number[] = [];
  readonly goal: number[] = [];
  readonly value: (number | null)[] = [];
  readonly intermediate: number[] = [];
  /** Restarts after divergence since the last restart(). */
  divergences = 0;
  private t0 = 0;
  private steps = 0;
  private readonly state: ModelState;

  constructor(
    readonly model: SpringModel,
    state: ModelState,
    readonly dt: number,
  ) {
    this.state = state;
  }

  /** Starts over at rest on the goal at time t0 (s). */
  restart(t0: number, goals: GoalTrack, p: SpringParams): void {
    for (const series of [this.t, this.goal, this.value, this.intermediate]) series.length = 0;
    this.t0 = t0;
    this.steps = 0;
    this.divergences = 0;
    this.state.reset(goals.valueAt(t0), p);
    this.record(t0, goals.valueAt(t0));
  }

  /** Steps until the next step would end after `clock` (s). */
  advanceTo(clock: number, goals: GoalTrack, p: SpringParams): void {
    while (this.t0 + (this.steps + 1) * this.dt <= clock + TIME_EPSILON) {
      const goal = goals.valueAt(this.t0 + this.steps * this.dt);
      this.state.step(goal, p, this.dt);
      this.steps++;
      const t = this.t0 + this.steps * this.dt;
      if (!(Math.abs(this.state.value) < DIVERGED)) {
        this.divergences++;
        this.state.reset(goal, p);
        // a gap in the plot
        this.t.push(t);
        this.goal.push(goal);
        this.value.push(null);
        this.intermediate.push(NaN);
        continue;
      }
      this.record(t, goals.valueAt(t));
    }
  }

  /** Drops samples before `start` (s), keeping one so the curve reaches the left edge. */
  trim(start: number): void {
    let drop = 0;
    while (drop + 1 < this.t.length && this.t[drop + 1]! < start) drop++;
    if (drop > 64) for (const series of [this.t, this.goal, this.value, this.intermediate]) series.splice(0, drop);
  }

  dispose(): void {
    this.state.dispose();
  }

  private record(t: number, goal: number): void {
    this.t.push(t);
    this.goal.push(goal);
    this.value.push(this.state.value);
    this.intermediate.push(this.state.intermediate);
  }
}
