/**
 * The goal signal shared by every plot: a step function of time, set by the user or, while
 * "automatic" is on, by a fixed sequence of steps. Every change lands on a multiple of 1/6 s, a
 * whole number of frames at 30, 60 and 144 Hz, so traces at those rates see it at the same instant.
 */

/** s: the common frame grid of 30, 60 and 144 Hz (1/6 = 5/30 = 10/60 = 24/144). */
export const GOAL_GRID = 1 / 6;
/** s between automatic goal changes (a multiple of the grid). */
const AUTO_PERIOD = 1.5;
const AUTO_SEQUENCE = [0.8, -0.5, 0.2, -0.9, 1.0, -0.2, 0.5, -0.7];
/** s: times within this of an event count as at it (trace times are k·dt in floating point). */
const TIME_EPSILON = 1e-9;

interface GoalEvent {
  t: number;
  value: number;
}

export class GoalTrack {
  private events: GoalEvent[] = [{ t: 0, value: 0 }];
  private automatic = true;
  private nextAuto = AUTO_PERIOD;
  private autoIndex = 0;

  get isAutomatic(): boolean {
    return this.automatic;
  }

  /** Turns the automatic sequence on or off at time `now` (s). */
  setAutomatic(on: boolean, now: number): void {
    if (on && !this.automatic) this.nextAuto = snapUp(now) + AUTO_PERIOD;
    this.automatic = on;
  }

  /** The goal at time t (s). */
  valueAt(t: number): number {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]!.t <= t + TIME_EPSILON) return this.events[i]!.value;
    return this.events[0]!.value;
  }

  /** Sets the goal from the next grid instant after `now` (s) on, replacing anything scheduled later. */
  set(value: number, now: number): void {
    this.schedule(snapUp(now), value);
  }

  /** Adds the automatic changes due up to `now` (s). */
  runAutomatic(now: number): void {
    while (this.automatic && this.nextAuto <= now + TIME_EPSILON) {
      this.schedule(this.nextAuto, AUTO_SEQUENCE[this.autoIndex++ % AUTO_SEQUENCE.length]!);
      this.nextAuto += AUTO_PERIOD;
    }
  }

  /** Forgets changes that no time after `before` (s) can see. */
  prune(before: number): void {
    let keep = 0;
    while (keep + 1 < this.events.length && this.events[keep + 1]!.t <= before) keep++;
    this.events.splice(0, keep);
  }

  private schedule(t: number, value: number): void {
    this.events = this.events.filter((e) => e.t < t - TIME_EPSILON);
    this.events.push({ t, value });
  }
}

/** The first grid instant at or after t. */
export function snapUp(t: number): number {
  return Math.ceil(t / GOAL_GRID - TIME_EPSILON) * GOAL_GRID;
}

/** The last grid instant at or before t. */
export function snapDown(t: number): number {
  return Math.floor(t / GOAL_GRID + TIME_EPSILON) * GOAL_GRID;
}
