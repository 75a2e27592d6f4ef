/**
 * Transcriptions of a formula evaluated twice: for its value, and for the magnitude M of its
 * terms. In magnitude mode every input and coefficient is replaced by its absolute value and every
 * difference by a sum, so M bounds every partial result of the formula; any float evaluation of
 * it with k roundings of relative size u then errs by at most about k·u·M (the running error bound).
 */
export interface Arith {
  in(a: number): number;
  sub(a: number, b: number): number;
}

export const VALUE: Arith = { in: (a) => a, sub: (a, b) => a - b };
export const MAGNITUDE: Arith = { in: Math.abs, sub: (a, b) => a + b };
