/**
 * Every family of Solver methods beyond the core springs (src/base/solver.ts), one line each.
 * The Solver interface and the methods of every backend come from this object: a family listed
 * here is part of both, and a family missing here is part of neither, so nothing can be declared
 * and left unimplemented.
 */
import { compositeMethods } from './composite.js';
import { characterMethods } from './character.js';
import { inertializeMethods } from './inertialize.js';
import { signalMethods } from './signal.js';
import { pdSpringMethods } from './pd-spring.js';
import { substepMethods } from './substep.js';
import { quatMethods } from './quat.js';
import { quatHelperMethods } from './quat-helpers.js';

export const families = {
  composite: compositeMethods,
  character: characterMethods,
  inertialize: inertializeMethods,
  signal: signalMethods,
  pdSpring: pdSpringMethods,
  substep: substepMethods,
  quat: quatMethods,
  quatHelpers: quatHelperMethods,
};

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The methods of every family, as one type. */
export type FamilyMethods = Intersection<(typeof families)[keyof typeof families]>;
