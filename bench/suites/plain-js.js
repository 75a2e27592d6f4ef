// The loops a user would write instead of calling the solver: Holden's "Spring-It-On" formulas
// (critical_spring_damper_exact, simple_spring_damper_exact, spring_damper_exact), transcribed for
// the benchmark over Float32Arrays, with Math.exp or with his fast_negexp / fast_atan. Uniform
// parameters are hoisted out of the loop; per-element ones are computed inside it. No closures in
// the loops; the exp is a top-level function V8 inlines. See bench/README.md.

const LN2 = Math.LN2; // Holden writes 0.69314718056f
const EPS = 1e-5;
const TWO_PI = 2 * Math.PI;

/** Holden's fast_negexp: e^{−x} ≈ 1/(1 + x + 0.48x² + 0.235x³). */
export function fastNegexp(x) {
  return 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
}

export function mathNegexp(x) {
  return Math.exp(-x);
}

/** Holden's fast_atan. */
export function fastAtan(x) {
  const z = Math.abs(x);
  const w = z > 1 ? 1 / z : z;
  const y = (Math.PI / 4) * w - w * (w - 1) * (0.2447 + 0.0663 * w);
  const r = z > 1 ? Math.PI / 2 - y : y;
  return x < 0 ? -r : r;
}

// One function literal per loop and exp. Closures made by one factory from one literal (a
// `criticalWith(negexp)`) share V8's optimized code: whichever variant ran first decided the
// inlined exp, and the other then ran 2.5× slower (fast_negexp critical, N = 65536: 6.3 ns per
// spring when it ran first, 15.7 ns after the Math.exp variant). So each variant is written out.

/** critical_spring_damper_exact over n springs with Math.exp; halflife a number or a Float32Array. */
const criticalExact = {
  uniform(x, v, g, q, halflife, dt) {
    const d = (4 * LN2) / (halflife + EPS);
    const y = d / 2;
    const eydt = Math.exp(-y * dt);
    const cq = d / ((d * d) / 4);
    for (let i = 0; i < x.length; i++) {
      const c = g[i] + cq * q[i];
      const j0 = x[i] - c;
      const j1 = v[i] + j0 * y;
      x[i] = eydt * (j0 + j1 * dt) + c;
      v[i] = eydt * (v[i] - j1 * y * dt) + q[i];
    }
  },
  perElement(x, v, g, q, halflife, dt) {
    for (let i = 0; i < x.length; i++) {
      const d = (4 * LN2) / (halflife[i] + EPS);
      const y = d / 2;
      const c = g[i] + (d * q[i]) / ((d * d) / 4);
      const j0 = x[i] - c;
      const j1 = v[i] + j0 * y;
      const eydt = Math.exp(-y * dt);
      x[i] = eydt * (j0 + j1 * dt) + c;
      v[i] = eydt * (v[i] - j1 * y * dt) + q[i];
    }
  },
};

/** The same with Holden's fast_negexp. */
const criticalFast = {
  uniform(x, v, g, q, halflife, dt) {
    const d = (4 * LN2) / (halflife + EPS);
    const y = d / 2;
    const eydt = fastNegexp(y * dt);
    const cq = d / ((d * d) / 4);
    for (let i = 0; i < x.length; i++) {
      const c = g[i] + cq * q[i];
      const j0 = x[i] - c;
      const j1 = v[i] + j0 * y;
      x[i] = eydt * (j0 + j1 * dt) + c;
      v[i] = eydt * (v[i] - j1 * y * dt) + q[i];
    }
  },
  perElement(x, v, g, q, halflife, dt) {
    for (let i = 0; i < x.length; i++) {
      const d = (4 * LN2) / (halflife[i] + EPS);
      const y = d / 2;
      const c = g[i] + (d * q[i]) / ((d * d) / 4);
      const j0 = x[i] - c;
      const j1 = v[i] + j0 * y;
      const eydt = fastNegexp(y * dt);
      x[i] = eydt * (j0 + j1 * dt) + c;
      v[i] = eydt * (v[i] - j1 * y * dt) + q[i];
    }
  },
};

/** simple_spring_damper_exact (goal velocity 0) with Math.exp. */
const simpleExact = {
  uniform(x, v, g, halflife, dt) {
    const y = (4 * LN2) / (halflife + EPS) / 2;
    const eydt = Math.exp(-y * dt);
    for (let i = 0; i < x.length; i++) {
      const j0 = x[i] - g[i];
      const j1 = v[i] + j0 * y;
      x[i] = eydt * (j0 + j1 * dt) + g[i];
      v[i] = eydt * (v[i] - j1 * y * dt);
    }
  },
  perElement(x, v, g, halflife, dt) {
    for (let i = 0; i < x.length; i++) {
      const y = (4 * LN2) / (halflife[i] + EPS) / 2;
      const j0 = x[i] - g[i];
      const j1 = v[i] + j0 * y;
      const eydt = Math.exp(-y * dt);
      x[i] = eydt * (j0 + j1 * dt) + g[i];
      v[i] = eydt * (v[i] - j1 * y * dt);
    }
  },
};

/** The same with Holden's fast_negexp. */
const simpleFast = {
  uniform(x, v, g, halflife, dt) {
    const y = (4 * LN2) / (halflife + EPS) / 2;
    const eydt = fastNegexp(y * dt);
    for (let i = 0; i < x.length; i++) {
      const j0 = x[i] - g[i];
      const j1 = v[i] + j0 * y;
      x[i] = eydt * (j0 + j1 * dt) + g[i];
      v[i] = eydt * (v[i] - j1 * y * dt);
    }
  },
  perElement(x, v, g, halflife, dt) {
    for (let i = 0; i < x.length; i++) {
      const y = (4 * LN2) / (halflife[i] + EPS) / 2;
      const j0 = x[i] - g[i];
      const j1 = v[i] + j0 * y;
      const eydt = fastNegexp(y * dt);
      x[i] = eydt * (j0 + j1 * dt) + g[i];
      v[i] = eydt * (v[i] - j1 * y * dt);
    }
  },
};

/** spring_damper_exact for one element (the three regimes), writing x[i], v[i]. */
function springStep(x, v, i, g, q, s, d, dt, negexp, atan) {
  const c = g + (d * q) / (s + EPS);
  const y = d / 2;
  const w2 = s - (d * d) / 4;
  if (Math.abs(w2) < EPS) {
    const j0 = x[i] - c;
    const j1 = v[i] + j0 * y;
    const eydt = negexp(y * dt);
    x[i] = j0 * eydt + dt * j1 * eydt + c;
    v[i] = -y * j0 * eydt - y * dt * j1 * eydt + j1 * eydt;
  } else if (w2 > 0) {
    const w = Math.sqrt(w2);
    const xc = x[i] - c;
    const vy = v[i] + y * xc;
    let j = Math.sqrt((vy * vy) / (w * w + EPS) + xc * xc);
    const p = atan(vy / (-xc * w + EPS));
    j = xc > 0 ? j : -j;
    const eydt = negexp(y * dt);
    const cs = Math.cos(w * dt + p);
    x[i] = j * eydt * cs + c;
    v[i] = -y * j * eydt * cs - w * j * eydt * Math.sin(w * dt + p);
  } else {
    const r = Math.sqrt(d * d - 4 * s);
    const y0 = (d + r) / 2;
    const y1 = (d - r) / 2;
    const j1 = (c * y0 - x[i] * y0 - v[i]) / (y1 - y0);
    const j0 = x[i] - j1 - c;
    const e0 = negexp(y0 * dt);
    const e1 = negexp(y1 * dt);
    x[i] = j0 * e0 + j1 * e1 + c;
    v[i] = -y0 * j0 * e0 - y1 * j1 * e1;
  }
}

function springFast(x, v, i, g, q, s, d, dt) {
  springStep(x, v, i, g, q, s, d, dt, fastNegexp, fastAtan);
}

function springExact(x, v, i, g, q, s, d, dt) {
  springStep(x, v, i, g, q, s, d, dt, mathNegexp, Math.atan);
}

function springWith(step) {
  return {
    uniform(x, v, g, q, frequency, halflife, dt) {
      const s = (TWO_PI * frequency) ** 2;
      const d = (4 * LN2) / (halflife + EPS);
      for (let i = 0; i < x.length; i++) step(x, v, i, g[i], q[i], s, d, dt);
    },
    perElement(x, v, g, q, frequency, halflife, dt) {
      for (let i = 0; i < x.length; i++) {
        const f = TWO_PI * frequency[i];
        step(x, v, i, g[i], q[i], f * f, (4 * LN2) / (halflife[i] + EPS), dt);
      }
    },
  };
}

/** kernel → variant → { uniform, perElement }. */
export const PLAIN_LOOPS = {
  criticalSpringDamper: { 'plain-JS Math.exp': criticalExact, 'plain-JS fast_negexp': criticalFast },
  simpleSpringDamper: { 'plain-JS Math.exp': simpleExact, 'plain-JS fast_negexp': simpleFast },
  springDamper: { 'plain-JS Math.exp': springWith(springExact), 'plain-JS fast_negexp': springWith(springFast) },
};

/**
 * The plain-JS loop that keeps each element's transition between calls (the competitor of a
 * prepared call with kept coefficients): coefficients in six Float32Arrays, computed once by
 * `fill` (not timed), then x' = g + xx·(x − g) + xv·v + xq·q, v' = vx·(x − g) + vv·v + vq·q.
 */
export function keptMatrixLoop(n) {
  const c = {
    xx: new Float32Array(n),
    xv: new Float32Array(n),
    xq: new Float32Array(n),
    vx: new Float32Array(n),
    vv: new Float32Array(n),
    vq: new Float32Array(n),
  };
  return {
    /** Critical spring coefficients from per-element halflives (float64, as the reference). */
    fillCritical(halflife, dt) {
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.LN2) / halflife[i];
        const u = a * dt;
        const e = Math.exp(-u);
        c.xx[i] = e * (1 + u);
        c.xv[i] = e * dt;
        c.xq[i] = (2 * (1 - e * (1 + u))) / a;
        c.vx[i] = -a * u * e;
        c.vv[i] = e * (1 - u);
        c.vq[i] = 2 * u * e;
      }
    },
    apply(x, v, g, q) {
      const { xx, xv, xq, vx, vv, vq } = c;
      for (let i = 0; i < x.length; i++) {
        const y = x[i] - g[i];
        const vi = v[i];
        x[i] = g[i] + xx[i] * y + xv[i] * vi + xq[i] * q[i];
        v[i] = vx[i] * y + vv[i] * vi + vq[i] * q[i];
      }
    },
  };
}
