/**
 * The tolerances of the tests, in one place, each justified by float32 rounding of the state and
 * the inputs (u = 2^-24 per rounding), never by an algorithm's own intermediate terms.
 *
 * M is the sum of the magnitudes of the terms of the exact transition written around g,
 *   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q,
 * i.e. M = |g| + |xx·(x − g)| + |xv·v| + |xq·q| for x' (and likewise for v'): the inputs scaled by
 * the exact solution, not partial results of any kernel.
 */

/** One float32 ulp relative to the value: 2^-23 (the float64 paths round once, ≤ 2^-24). */
export const FLOAT32_ULP = 2 ** -23;

/** The smallest normal float32. Below it rounding is absolute (2^-150 per operation). */
export const FLOAT32_MIN_NORMAL = 2 ** -126;

/**
 * Floor for results that underflow: float32 is subnormal below FLT_MIN ≈ 1.2e-38 and rounds by
 * ≤ 2^-150 per operation; 1e-37 covers ≤ 10 such roundings on inputs ≤ 20 with margin.
 */
export const SUBNORMAL_FLOOR = 1e-37;

/**
 * The SIMD core springs, per unit of M. The kernel rounds each coefficient to float32 (≤ u·|term|),
 * x − g, each product and each of ≤ 3 additions (≤ u·M, every partial sum being ≤ M): 6u·M; the
 * reference's final rounding adds u·M: ≤ 7u·M ≈ 4.2e-7·M. 1e-6 is 2.4× that bound.
 */
export const SIMD_PER_M = 1e-6;

/**
 * The scalar wasm kernels evaluate the reference's float64 formulas and round once; their libm
 * exp/sin/cos may differ by an ulp (≈ 1e-16), amplified ≤ 1e4 by the over-damped branch's
 * ((a + b)·e1 + l1·e2)/2b cancellation: 1e-12·M.
 */
export const SCALAR_PER_M = 1e-12;

/**
 * Float64 paths against a float64 oracle built another way (closed forms): ≤ ~10 roundings of the
 * coefficients, amplified ≤ 1e3 by the over-damped branch's cancellation near critical: 1e-11·M.
 */
export const F64_PER_M = 1e-11;

/**
 * Parity of the families (composite, character, inertialize, signal, PD springs, quaternions),
 * relative to the magnitude of the terms (the same expression evaluated with absolute values):
 * each float32 input carries 2^-24 ≈ 6e-8 rounding, the f32x4 kernels round every product and
 * sum (≈ 10 operations per output: ≤ 6e-7 of the terms) and each float64 coefficient is rounded
 * to float32 once. 1e-5 is ten times that bound, and a thousand times below any error in the
 * maths (a wrong coefficient or branch).
 */
export const PARITY_TOLERANCE = 1e-5;

/**
 * The loading scenario (test/fixtures/spring-scenario.js) on two backends: the same float32
 * inputs, states rounded to float32 after each of 120 calls (6e-8 relative, values ≤ ~3), so
 * honest backends drift apart by ≤ 120 · 6e-8 · 3 ≈ 2e-5. Measured: 4.3e-7 (SIMD vs JS), 0
 * (scalar wasm vs JS). A wrong coefficient or a skipped call moves values by ≥ 1e-2.
 */
export const SCENARIO_TOLERANCE = 2e-5;

/**
 * spring-solver/webgpu against the float64 reference, per unit of (1 + the largest magnitude the
 * value had on its float64 trajectory): issue 28's target. WGSL has no float64, so the per-element
 * coefficients are float32 functions of u = a·dt and ω·dt. Float32 rounding of the inputs alone
 * (dt, halflife, frequency: 2^-24 each) moves u and ω·dt by that relative amount, which moves the
 * exact result by ≤ (u²e^{−u} + ω·dt·e^{−ζ·ω·dt})·2^-24 of the state's magnitude: at most
 * (0.54 + 1/(e·ζ))·2^-24 ≈ 4.7e-7 with the tested ζ ≥ 0.05; the kernels' own float32 evaluation
 * (≤ ~20 roundings of the same terms) is of that order too. 1e-5 is 20 times that bound, and far
 * below any error in the maths (a wrong coefficient or regime).
 *
 * Where the result is far more sensitive than the state's magnitude (a velocity vx·(x − g) at a zero
 * of sin ω·dt, with vx ∝ s·dt: a fast spring sampled between its peaks), the bound is the value's
 * own sensitivity: GPU_INPUT_ROUNDINGS × Σ |change of the exact float64 result when dt, the
 * halflife or the frequency moves by one float32 rounding (×(1 + 2^-24))|. The kernel forms ω·dt
 * with ≤ 5 roundings of that size (2π·dt, f·2π·dt, its square, s·dt² − u², the square root), so
 * 8 covers it.
 */
export const GPU_PARITY_TOLERANCE = 1e-5;
export const GPU_INPUT_ROUNDINGS = 8;
