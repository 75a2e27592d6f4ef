/**
 * docs/parameterisations.md: every number of its table of equivalent settings is checked against
 * the conversions (and the library's conversion functions), and each row's spring, stepped by
 * Holden's springDamperStiffness / springDamper / springDamperRatio, Bowles' pdSpring 'exact' and
 * t3ssel8r's SecondOrderDynamics 'exact' (r = 0, constant input), follows one trajectory.
 */
import { describe, expect, it } from 'vitest';
import {
  SecondOrderDynamics,
  criticalHalflife,
  dampingRatioToDamping,
  dampingToHalflife,
  frequencyToStiffness,
  fzrToK,
  halflifeToDamping,
  kToFzr,
  stiffnessToFrequency,
} from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { oscillator, transitionGain } from '../helpers/closed-form.js';
import doc from '../../docs/parameterisations.md?raw';

const LN2 = Math.LN2;
const COLUMNS = ['ω', 'ζ', 'f', 'k1', 'k2', 'halflife', 'stiffness', 'damping'] as const;
type Column = (typeof COLUMNS)[number];

interface Row {
  name: string;
  printed: Record<Column, number>;
  /** The two bold (defining) columns. */
  defining: Column[];
}

/** The rows of the table between the equivalent-settings markers. */
function tableRows(): Row[] {
  const body = doc.split('<!-- equivalent-settings:start -->')[1].split('<!-- equivalent-settings:end -->')[0];
  const lines = body.trim().split('\n').slice(2); // header and separator
  return lines.map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const printed = {} as Record<Column, number>;
    const defining: Column[] = [];
    COLUMNS.forEach((column, k) => {
      const cell = cells[k + 1];
      if (cell.startsWith('**')) defining.push(column);
      printed[column] = Number(cell.replaceAll('*', ''));
    });
    return { name: cells[0], printed, defining };
  });
}

/** Stiffness s and damping d from the two defining values, by the conversions of the page. */
function springOf(row: Row): { s: number; d: number } {
  const v = row.printed;
  const key = [...row.defining].sort().join(',');
  switch (key) {
    case 'ζ,ω':
      return { s: v.ω ** 2, d: 2 * v.ζ * v.ω }; // Bowles: s = ω², d = 2ζω
    case 'f,ζ':
      return { s: (2 * Math.PI * v.f) ** 2, d: 2 * v.ζ * 2 * Math.PI * v.f }; // ω = 2πf
    case 'halflife,ζ': {
      const d = (4 * LN2) / v.halflife;
      return { s: (d / (2 * v.ζ)) ** 2, d };
    } // d = 4ln2/h, ζ = d/(2√s)
    case 'f,halflife':
      return { s: (2 * Math.PI * v.f) ** 2, d: (4 * LN2) / v.halflife }; // Holden's springDamper
    case 'damping,stiffness':
      return { s: v.stiffness, d: v.damping };
    default:
      throw new Error(`no conversion from ${key}`);
  }
}

/** Every column from s and d. */
function derived({ s, d }: { s: number; d: number }): Record<Column, number> {
  const w = Math.sqrt(s);
  return { ω: w, ζ: d / (2 * w), f: w / (2 * Math.PI), k1: d / s, k2: 1 / s, halflife: (4 * LN2) / d, stiffness: s, damping: d };
}

const rows = tableRows();

describe('docs/parameterisations.md: the table of equivalent settings', () => {
  it('has five rows, each defined by two bold values', () => {
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.defining, row.name).toHaveLength(2);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s: every printed value is the conversion, to 5 significant digits', (_name, row) => {
    const exact = derived(springOf(row));
    for (const column of COLUMNS) {
      // A value printed to 5 significant digits is within half a unit of its 5th digit.
      const halfUnit = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(exact[column]))) - 4);
      expect(Math.abs(row.printed[column] - exact[column]), `${column}: ${row.printed[column]} vs ${exact[column]}`).toBeLessThanOrEqual(
        halfUnit * (1 + 1e-9),
      );
    }
  });

  it.each(rows.map((r) => [r.name, r] as const))("%s: the library's conversion functions agree", (_name, row) => {
    const { s, d } = springOf(row);
    const x = derived({ s, d });
    const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-12 * Math.abs(b));
    close(frequencyToStiffness(x.f), s);
    close(stiffnessToFrequency(s), x.f);
    close(halflifeToDamping(x.halflife), d);
    close(dampingToHalflife(d), x.halflife);
    close(dampingRatioToDamping(x.ζ, s), d);
    const k = fzrToK(x.f, x.ζ, 0);
    close(k.k1, x.k1);
    close(k.k2, x.k2);
    expect(k.k3).toBe(0);
    const back = kToFzr(x.k1, x.k2, 0);
    close(back.f, x.f);
    close(back.zeta, x.ζ);
    // The damping ratio of Holden's springDamper: ln2/(π·frequency·halflife).
    close(LN2 / (Math.PI * x.f * x.halflife), x.ζ);
    if (row.printed.ζ === 1) close(criticalHalflife(x.f), x.halflife);
  });

  it('the halflife facts of the page', () => {
    // The envelope e^{−d·t/2} with d = 4·ln2/h halves every h/2.
    const h = 0.3;
    expect(Math.exp((-halflifeToDamping(h) / 2) * (h / 2))).toBeCloseTo(0.5, 14);
    // A critically damped spring released at rest is at (1 + 2·ln2)/4 of its offset at t = h.
    const w = halflifeToDamping(h) / 2; // critical: ω = d/2
    expect(oscillator(w, 1, 1, 0, 0, 0, h)[0]).toBeCloseTo((1 + 2 * LN2) / 4, 14);
    expect((1 + 2 * LN2) / 4).toBeCloseTo(0.597, 3);
  });
});

describe('docs/parameterisations.md: every parameterisation of a row is the same spring', () => {
  const solvers = useSolvers(1024 * 1024);

  // 48 steps of varying dt from x0 = 1.5, v0 = 0 toward a constant goal −0.5 (velocity 0).
  const DTS = [1 / 60, 1 / 30, 0.1, 1 / 240];
  const K = 48;
  const [x0, g0] = [1.5, -0.5];
  const u = 2 ** -24;

  it.each(BACKENDS.flatMap((b) => rows.map((r) => [b, r.name, r] as const)))('%s backend, %s', (backend, _name, row) => {
    const solver = solvers[backend];
    const { s, d } = springOf(row);
    const x = derived({ s, d });
    const state = () => [Float32Array.of(x0), Float32Array.of(0)] as const;
    const g = Float32Array.of(g0);
    const q = Float32Array.of(0);
    const runs = {
      springDamperStiffness: state(),
      springDamper: state(),
      springDamperRatio: state(),
      pdSpring: state(),
    };
    // t3ssel8r: y starts at x0 with yd = 0; the input is the goal from the start (xPrev = goal, so
    // the first-order hold sees no ramp), k3 = 0 (r = 0).
    const sod = new SecondOrderDynamics(solver, x.f, x.ζ, 0, Float32Array.of(x0), { method: 'exact' });
    sod.xPrev[0] = g0;
    // The solvers round parameters to float32: the closed form uses the stiffness and damping that
    // result (through Bowles' ω and ζ, the rounding of which moves s and d by ~1e-7 relative).
    const w = Math.fround(x.ω);
    const zeta = Math.fround(x.ζ);
    let t = 0;
    let accumulated = 0;
    for (let k = 0; k < K; k++) {
      const dt = DTS[k % DTS.length];
      solver.springDamperStiffness(...runs.springDamperStiffness, g, q, x.stiffness, x.damping, dt);
      solver.springDamper(...runs.springDamper, g, q, x.f, x.halflife, dt);
      solver.springDamperRatio(...runs.springDamperRatio, g, q, x.ζ, x.halflife, dt);
      solver.pdSpring(...runs.pdSpring, g, q, x.ω, x.ζ, dt, { integrator: 'exact' });
      sod.update(dt, g);
      t += dt;
      const [xt, vt] = oscillator(w, zeta, x0, 0, g0, 0, t);
      // Bound: each step errs by ≤ 8u·M, M = |g| + |xx·(x − g)| + |xv·v| (7 float32 roundings
      // and the stored result), carried to later steps with a gain ≤ G (the exact transition's
      // ∞-norm); the float32 parameters differ from (w, ζ) by ≤ 2u relative, which moves the
      // solution at t by ≤ 2u·(ωt + 1)·(|x0 − g| + …) — covered by the same sum over 48 steps.
      const T = reference.linearTransition(w, zeta, dt);
      accumulated +=
        8 * u * (Math.abs(g0) + (Math.abs(T.xx) + Math.abs(T.xv) * w + Math.abs(T.vx) / w + Math.abs(T.vv)) * Math.abs(x0 - g0)) +
        4 * u * (w * t + 1) * Math.abs(x0 - g0);
      const bound = transitionGain(w, zeta, t) * accumulated;
      const all = {
        ...Object.fromEntries(Object.entries(runs).map(([name, [p, v]]) => [name, [p[0], v[0]]])),
        SecondOrderDynamics: [sod.y[0], sod.yd[0]],
      };
      for (const [name, [p, v]] of Object.entries(all)) {
        expect(Math.abs(p - xt), `${name} x at t ${t}`).toBeLessThanOrEqual(bound);
        expect(Math.abs(v - vt) / w, `${name} v/ω at t ${t}`).toBeLessThanOrEqual(bound);
      }
    }
    // It moved: the goal is 2 away, and after 1.7 s every row has covered most of it.
    expect(Math.abs(runs.pdSpring[0][0] - x0)).toBeGreaterThan(1);
    sod.dispose();
  });
});
