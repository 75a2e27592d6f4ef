// The exact transition of Holden's general spring x'' = s·(g − x) + d·(q − v) over t = dt,
// per element in float32 (the coefficients of uniform parameters come from the host, in float64):
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// [[xx, xv], [vx, vv]] = exp([[0, 1], [−s, −d]]·t), xq = d·∫₀ᵗ xv, vq = d·xv: the formulas of the
// float64 reference (src/reference/spring-transition.ts), in the dimensionless u = (d/2)·t and
// s·t², with the regimes joined as there (halflife 0: the limit d = ∞; critical: one exp).

struct Coef {
  xx: f32, xv: f32, xq: f32,
  vx: f32, vv: f32, vq: f32,
}

const TWO_LN2: f32 = 1.3862943611198906;
const INV_LN2: f32 = 1.4426950408889634;
// Below float32's smallest normal number a halflife counts as 0 (2·ln2/h would overflow).
const MIN_HALFLIFE: f32 = 1.1754943508222875e-38;

// Holden's critical_spring_damper_exact for halflife h (s = a², d = 2a, a = 2·ln2/h), u = a·t:
//   xx = e·(1 + u), xv = e·t, vx = −a·u·e, vv = e·(1 − u), vq = 2u·e,
//   xq = 2·(1 − xx)/a = 2t·u·e·φ₂(u) (u < 2, no cancellation; else (1 − xx)·h/ln2).
// h = 0: s and d infinite, the state snaps to (g, 0): every coefficient 0.
fn criticalCoefficients(h: f32, t: f32, twoLn2T: f32) -> Coef {
  if (!(h >= MIN_HALFLIFE) || !(twoLn2T < h * EXP_NEG_MAX)) {
    // e = 0 (or h = 0): x' = g + xq·q with xq = 2/a = h/ln2 (0 at h = 0)
    return Coef(0.0, 0.0, h * INV_LN2, 0.0, 0.0, 0.0);
  }
  let u = twoLn2T / h;
  let a = TWO_LN2 / h;
  let e = expNeg(u);
  let xx = e * (1.0 + u);
  var xq: f32;
  if (u < 2.0) {
    xq = 2.0 * t * u * e * phi2(u);
  } else {
    xq = (1.0 - xx) * h * INV_LN2;
  }
  return Coef(xx, e * t, xq, -a * (u * e), e * (1.0 - u), 2.0 * u * e);
}

// P/t² = ∫₀ᵗ xv / t² as the reference's Taylor series (integralOfXvSeries): c₀ = ½,
// (k + 2)(k + 1)·cₖ = −(d·t)(k + 1)·cₖ₋₁ − (s·t²)·cₖ₋₂. Called with d·t ≤ 4 and s·t² ≤ 5:
// 24 terms (the last ≤ 4^24/26! = 7e-13 of the first); the alternating terms cancel by ≤ 16.
fn integralOfXvSeries(dt2: f32, st2: f32) -> f32 {
  var prev = 0.0;
  var c = 0.5;
  var sum = c;
  for (var k = 1; k <= 24; k++) {
    let kf = f32(k);
    let next = (-dt2 * (kf + 1.0) * c - st2 * prev) / ((kf + 2.0) * (kf + 1.0));
    prev = c;
    c = next;
    sum += c;
  }
  return sum;
}

// Holden's spring_damper_exact from u = (d/2)·t and ωₙt = √s·t (ωₙt ≥ 0), over t:
// z = s·t² − u² = (ω·t)², signed; under-damped z > 1 (cos, sin), near critical |z| ≤ 1 (the same
// functions of z as power series), over-damped z < −1 (two exps). halflife 0 is the caller's.
fn generalCoefficients(u: f32, wnT: f32, t: f32) -> Coef {
  // Past ωₙt = 1e18 (u < 1e18: the caller's), s·t² would overflow float32: the spring is
  // under-damped, and s·t² appears only as ωₙt·ωₙt, applied factor by factor below.
  let big = wnT > 1e18;
  let z = select((wnT - u) * (wnT + u), 2.0, big);
  if (z >= -1.0) {
    let e = expNeg(u);
    var C: f32; // cos ωt
    var S: f32; // sin ωt / ωt
    var oneMinusC: f32;
    if (z > 1.0) {
      let wt = sqrt(wnT - u) * sqrt(wnT + u); // √z, without forming z
      let sc = sinCos(wt);
      C = sc.y;
      S = sc.x / wt;
      // 1 − cos = sin²/(1 + cos) without cancellation where cos > 0
      oneMinusC = select(1.0 - C, sc.x * sc.x / (1.0 + C), C > 0.0);
    } else {
      // C = 1 + z·Cr, S = 1 + z·Sr to degree 5 in z (|z| ≤ 1: truncation ≤ 1/12! = 2.1e-9)
      var cr = -1.0 / 3628800.0;
      cr = cr * z + 1.0 / 40320.0;
      cr = cr * z - 1.0 / 720.0;
      cr = cr * z + 1.0 / 24.0;
      cr = cr * z - 0.5;
      var sr = -1.0 / 39916800.0;
      sr = sr * z + 1.0 / 362880.0;
      sr = sr * z - 1.0 / 5040.0;
      sr = sr * z + 1.0 / 120.0;
      sr = sr * z - 1.0 / 6.0;
      C = 1.0 + z * cr;
      S = 1.0 + z * sr;
      oneMinusC = -z * cr;
    }
    let xx = e * (C + u * S);
    let xv = e * t * S;
    var xq: f32;
    if (z > 1.0 || u > 2.0) {
      // xq = d·(1 − xx)/s with 1 − xx = (1 − e) + e·(1 − C) − e·u·S: here s·t² > 1 and the terms
      // cancel by a factor ≤ 6 (z > 1: S ≤ sin 1; u > 2: 1 − e ≥ 0.86 > e·u·S)
      xq = (2.0 * u * t / wnT) * ((oneMinusExpNeg(u) + e * oneMinusC - e * u * S) / wnT);
    } else {
      // |z| ≤ 1 and d·t ≤ 4: P by its series, as the reference does near critical with small s·t²
      // (there (1 − xx)/s cancels by up to 1/(s·t²))
      xq = 2.0 * u * t * integralOfXvSeries(2.0 * u, wnT * wnT);
    }
    // vx = −s·xv = −(s·t²)·e·S/t, in an order that stays finite while e·S is 0
    return Coef(xx, xv, xq, -(wnT * ((wnT * e * S) / t)), e * (C - u * S), 2.0 * u * e * S);
  }
  // Over-damped: eigenvalues l₁·t = −s·t²/(u + b·t) (no cancellation) and l₂·t = −(u + b·t),
  // l₁ − l₂ = 2b; with e₁ = e^{l₁t} and m = 1 − e^{−2bt}, k = m/(2bt):
  //   xx = e₁·(1 + (s·t²/(u + bt))·k), vv = e₁·(1 − (u + bt)·k), xv = t·e₁·k,
  //   xq = d·∫xv = 2u·t·(φ₁(l₁t) − φ₁(l₂t))/(2bt)   (the reference's ((a+b)e₁ + l₁e₂)/2b … rearranged)
  let st2 = wnT * wnT; // < u² < 1e36 here
  let bt = sqrt(-z);
  let ab = u + bt;
  let m1 = st2 / ab;
  let e1 = expNeg(m1);
  let k = oneMinusExpNeg(2.0 * bt) / (2.0 * bt);
  let xq = 2.0 * u * t * (phi1Neg(m1) - phi1Neg(ab)) / (2.0 * bt);
  return Coef(e1 * (1.0 + m1 * k), t * e1 * k, xq, -(st2 * e1 * k) / t, e1 * (1.0 - ab * k), 2.0 * u * e1 * k);
}

// springDamper's coefficients for frequency f (Hz) and halflife h (s): s = (2π·f)², d = 4·ln2/h.
// Halflife 0 (d = ∞, s finite): v snaps to q and x moves at q.
fn frequencyHalflifeCoefficients(f: f32, h: f32, t: f32, twoLn2T: f32, twoPiT: f32) -> Coef {
  if (!(h >= MIN_HALFLIFE) || !(twoLn2T < h * 1e18)) {
    return Coef(1.0, 0.0, t, 0.0, 0.0, 1.0);
  }
  // ωₙt past 1e30 (a frequency near float32's largest, over a long dt) is held at 1e30: its phase
  // means nothing in float32 long before, and the coefficients stay finite
  let wnT = select(f * twoPiT, 1e30, twoPiT > 1e-8 && f > 1e30 / twoPiT);
  return generalCoefficients(twoLn2T / h, wnT, t);
}

// springDamperStiffness's coefficients for stiffness s (1/s²) and damping d (1/s), as given
// (the reference's stiffnessAndDamping): u = d·t/2, ωₙt = √s·t. Past u = 1e18 (d·t beyond float32's
// squares) the limit d = ∞ of frequencyHalflifeCoefficients: v snaps to q and x moves at q
// (the spring's own pull, rate s/d, is then below 2^-24 of the step unless s·t > 1e18·d·t·2^-24).
fn stiffnessDampingCoefficients(s: f32, d: f32, t: f32) -> Coef {
  let u = 0.5 * d * t;
  if (!(u < 1e18)) {
    return Coef(1.0, 0.0, t, 0.0, 0.0, 1.0);
  }
  let wnT = min(sqrt(s) * t, 1e30);
  return generalCoefficients(u, wnT, t);
}

// springDamperRatio's coefficients for damping ratio ζ > 0 and halflife h (s): d = 4·ln2/h,
// s = (d/(2ζ))², so u = 2·ln2·t/h and ωₙt = u/ζ (held at 1e30, as frequencyHalflifeCoefficients).
// Halflife 0 (d and s infinite; below float32's normal range, or u past 1e18): the state snaps
// to (g, 0), every coefficient 0, as the reference's transition at s = d = ∞.
fn ratioHalflifeCoefficients(zeta: f32, h: f32, twoLn2T: f32, t: f32) -> Coef {
  if (!(h >= MIN_HALFLIFE) || !(twoLn2T < h * 1e18)) {
    return Coef(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
  }
  let u = twoLn2T / h;
  let wnT = select(u / zeta, 1e30, u > zeta * 1e30);
  return generalCoefficients(u, wnT, t);
}
