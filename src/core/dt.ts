/**
 * The dt check of every per-frame call, and its warning for a dt that looks like milliseconds
 * (docs/DECISIONS.md, "A dt that looks like milliseconds"): `dt = 16.7` (a 60 Hz frame in ms) is a
 * valid dt, so it is not rejected, but the first such call of a solver says that dt is in seconds.
 *
 * The state of the warning lives on its owner: each solver (`SolverBase.largeDtWarningDue`), and
 * one shared owner for the solver-less helpers of spring-solver/three (`spring3`, `damper`…).
 * While nothing is due, a call pays one number compare against a constant (`dt >= LARGE_DT`).
 */
import { checkNumber } from './validate.js';

/** A dt (s) at or above this in a per-frame call looks like milliseconds: it warns once per solver. */
export const LARGE_DT = 1;

/** What keeps the warning once-only: a solver, or {@link HELPERS_DT}. */
export interface DtWarningOwner {
  /** True until the large-dt warning has been shown, or silenced by `createSolver({ warnLargeDt: false })`. */
  largeDtWarningDue: boolean;
}

/** The owner shared by the solver-less helpers of spring-solver/three (they have no solver): once per page or process. */
export const HELPERS_DT: DtWarningOwner = { largeDtWarningDue: true };

/** Calls whose dt is not a frame's length, so any dt is plausible: characterPredict's dt spaces its predicted samples. */
const NOT_PER_FRAME: readonly string[] = ['characterPredict'];

/**
 * The dt check of a per-frame call: a number, finite and ≥ 0 (else a TypeError or RangeError
 * naming `method` and `name`), then {@link warnLargeDt}. `owner`: the solver the call runs on
 * (any object; one without the warning's state never warns), or {@link HELPERS_DT}.
 */
export function checkDt(owner: object, method: string, dt: unknown, name = 'dt'): number {
  checkNumber(method, name, dt, 'nonNegative');
  if ((dt as number) >= LARGE_DT) warnLargeDt(owner, method, dt as number, name);
  return dt as number;
}

/**
 * Warns once per owner (a solver, or {@link HELPERS_DT}) when a checked dt is ≥ {@link LARGE_DT}:
 * `spring-solver: <method> got dt = 16.7; dt is in seconds …`. Call it after the call's own dt
 * check (e.g. SpringBones.update: `warnLargeDt(solver, 'SpringBones.update', dt)`); it costs one
 * compare when dt < 1 s. Nothing else changes: the call runs with the dt given.
 */
export function warnLargeDt(owner: object, method: string, dt: number, name = 'dt'): void {
  if (!(dt >= LARGE_DT)) return;
  const state = owner as Partial<DtWarningOwner>;
  if (state.largeDtWarningDue !== true || NOT_PER_FRAME.includes(method)) return;
  state.largeDtWarningDue = false;
  const once = owner === HELPERS_DT ? "once per page (or process) for spring-solver/three's solver-less helpers" : 'once per solver';
  console.warn(
    `spring-solver: ${method} got ${name} = ${dt}; ${name} is in seconds (1/60 ≈ 0.0167 for a 60 Hz frame). ` +
      `This warning is shown ${once}; silence it with createSolver({ warnLargeDt: false })`,
  );
}

/** createSolver({ warnLargeDt: false }): the solver never warns, nor do the solver-less helpers. */
export function silenceLargeDt(owner: object): void {
  (owner as Partial<DtWarningOwner>).largeDtWarningDue = false;
  HELPERS_DT.largeDtWarningDue = false;
}
