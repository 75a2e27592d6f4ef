// Measures the error of the SIMD per-element critical springs (assembly/kernels/spring-per-element.ts)
// against the float64 reference, as a multiple of the term magnitude M of test/core/parity.test.ts.
// Usage: npm run build && node tools/critical-error.mjs
import { createSolver, SpringMode } from '../dist/index.js';
import * as reference from '../dist/reference/index.js';
import { mulberry32 } from './mulberry32.js';

const solver = await createSolver({ backend: 'simd' });
const rng = mulberry32(7);
const n = 1 << 16;
const [x, v, g, q, h] = [0, 0, 0, 0, 0].map(() => solver.alloc(n));
const worst = { x: 0, v: 0 };
const byU = new Map();
for (const dt of [1 / 240, 1 / 60, 1 / 30, 0.1, 0.5, 2]) {
  for (let i = 0; i < n; i++) {
    // u = 2·ln2·dt/h over (1e-4, 80]; a band around u = 1
    // the first half: u ≤ 0.5 only (blocks that skip the exact float64 split of u)
    const u =
      i < n / 2
        ? Math.exp(Math.log(1e-6) + rng() * Math.log(0.5 / 1e-6))
        : i % 4 === 0
          ? 1 + (rng() - 0.5) * 1e-3
          : Math.exp(Math.log(1e-4) + rng() * Math.log(80 / 1e-4));
    h[i] = (2 * Math.LN2 * dt) / u;
    x[i] = rng() * 2 - 1;
    v[i] = rng() * 4 - 2;
    g[i] = rng() * 2 - 1;
    q[i] = rng() * 4 - 2;
  }
  const xr = Float32Array.from(x),
    vr = Float32Array.from(v);
  reference.criticalSpringDamper(xr, vr, g, q, h, dt);
  const x0 = Float32Array.from(x),
    v0 = Float32Array.from(v);
  solver.criticalSpringDamper(x, v, g, q, h, dt);
  for (let i = 0; i < n; i++) {
    const m = reference.springTransition(...reference.stiffnessAndDamping(SpringMode.Critical, h[i], 0), dt);
    const y = x0[i] - g[i];
    const mx = Math.abs(g[i]) + Math.abs(m.xx * y) + Math.abs(m.xv * v0[i]) + Math.abs(m.xq * q[i]);
    const mv = Math.abs(m.vx * y) + Math.abs(m.vv * v0[i]) + Math.abs(m.vq * q[i]);
    const ex = Math.abs(x[i] - xr[i]) / mx,
      ev = Math.abs(v[i] - vr[i]) / mv;
    worst.x = Math.max(worst.x, ex);
    worst.v = Math.max(worst.v, ev);
    const u = (2 * Math.LN2 * dt) / h[i];
    const band = u < 0.01 ? 'u<0.01' : u < 1 ? '0.01≤u<1' : u < 2 ? '1≤u<2' : u < 10 ? '2≤u<10' : '10≤u≤80';
    byU.set(band, Math.max(byU.get(band) ?? 0, ex, ev));
  }
}
console.log(`worst |error|/M: x ${worst.x.toExponential(2)}, v ${worst.v.toExponential(2)} (parity test allows 1e-6)`);
for (const [band, e] of [...byU].sort()) console.log(`  ${band}: ${e.toExponential(2)}`);
