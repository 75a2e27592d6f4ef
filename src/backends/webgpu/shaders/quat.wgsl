// Holden's simple_spring_damper_exact, quaternion version (Spring-It-On), one bone per invocation,
// written from the float64 reference (src/reference/quat-spring.ts, quatSimpleSpringDamper):
//   y = 2·ln2/halflife, eydt = e^{−y·dt}, j0 = log(abs(q ⊗ g⁻¹)) (scaled angle axis),
//   j1 = w + j0·y, q' = exp(eydt·(j0 + j1·dt)) ⊗ g, w' = eydt·(w − j1·y·dt).
// Slots: 0 q (x, y, z, w per bone), 1 w (rad/s, 3 per bone), 2 the goal, 4 the halflife (per
// bone); quatParams(i) from the header gives (eydt, y), eydt = 0 meaning halflife 0 (or e^{−y·dt}
// below 2^-125): the bone snaps to its goal at rest.

// Below this ratio |xyz|/w, 2·atan(t)/|xyz| is (2/w)(1 − t²/3 + t⁴/5) (the reference's SERIES_THRESHOLD).
const QUAT_SERIES: f32 = 1e-4;
const PI_OVER_2: f32 = 1.5707963267948966;
const PI_OVER_4: f32 = 0.7853981633974483;
const TAN_PI_OVER_8: f32 = 0.41421356237309503;

fn quatMul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(
    a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  );
}

// atan(r) for |r| ≤ tan(π/8): r·Σ (−r²)^k/(2k + 1) to k = 10 (truncation 0.1716^11/23 < 1e-9).
fn atanSmall(r: f32) -> f32 {
  let r2 = r * r;
  var p = 1.0 / 21.0;
  p = 1.0 / 19.0 - r2 * p;
  p = 1.0 / 17.0 - r2 * p;
  p = 1.0 / 15.0 - r2 * p;
  p = 1.0 / 13.0 - r2 * p;
  p = 1.0 / 11.0 - r2 * p;
  p = 1.0 / 9.0 - r2 * p;
  p = 1.0 / 7.0 - r2 * p;
  p = 1.0 / 5.0 - r2 * p;
  p = 1.0 / 3.0 - r2 * p;
  p = 1.0 - r2 * p;
  return r * p;
}

// atan2(s, c) for s, c ≥ 0, not both 0 (WGSL's atan2 may be off by 4096 ulp): atan of t ≤ 1, and
// atan t = π/4 + atan((t − 1)/(t + 1)) above tan(π/8).
fn atan2Positive(s: f32, c: f32) -> f32 {
  let swap = s > c;
  let t = select(s / c, c / s, swap);
  var a: f32;
  if (t > TAN_PI_OVER_8) {
    a = PI_OVER_4 + atanSmall((t - 1.0) / (t + 1.0));
  } else {
    a = atanSmall(t);
  }
  return select(a, PI_OVER_2 - a, swap);
}

// angle·axis of the shortest arc of q (2·log(abs(q))), with the reference's atan2 form.
fn toScaledAngleAxis(q: vec4<f32>) -> vec3<f32> {
  let p = select(q, -q, q.w < 0.0);
  let s = length(p.xyz);
  var k: f32;
  if (s <= QUAT_SERIES * p.w) {
    let t = s / p.w;
    let t2 = t * t;
    k = (2.0 / p.w) * (1.0 - t2 / 3.0 + t2 * t2 / 5.0);
  } else {
    k = 2.0 * atan2Positive(s, p.w) / s;
  }
  return k * p.xyz;
}

// exp(v/2): [sin(h)·v/|v|, cos h] with h = |v|/2, by series below h = 1e-4 (the reference's).
fn fromScaledAngleAxis(v: vec3<f32>) -> vec4<f32> {
  let h = 0.5 * length(v);
  var c: f32;
  var k: f32;
  if (h < QUAT_SERIES) {
    let h2 = h * h;
    c = 1.0 - h2 / 2.0 + h2 * h2 / 24.0;
    k = 0.5 * (1.0 - h2 / 6.0 + h2 * h2 / 120.0);
  } else {
    let sc = sinCos(h);
    c = sc.y;
    k = sc.x / (2.0 * h);
  }
  return vec4<f32>(k * v, c);
}

// (eydt, y) of the critical spring with halflife h per bone; (0, 0): snap.
fn quatCritical(h: f32, twoLn2T: f32) -> vec2<f32> {
  if (!(h >= MIN_HALFLIFE) || !(twoLn2T < h * EXP_NEG_MAX)) {
    return vec2<f32>(0.0, 0.0);
  }
  return vec2<f32>(expNeg(twoLn2T / h), TWO_LN2 / h);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * C.row;
  if (i >= C.n) {
    return;
  }
  let p = quatParams(i);
  let b4 = 4u * i;
  let b3 = 3u * i;
  let g = vec4<f32>(ld2(b4), ld2(b4 + 1u), ld2(b4 + 2u), ld2(b4 + 3u));
  var qn = g;
  var wn = vec3<f32>(0.0, 0.0, 0.0);
  if (p.x > 0.0) {
    let t = C.scal.x;
    let q = vec4<f32>(ld0(b4), ld0(b4 + 1u), ld0(b4 + 2u), ld0(b4 + 3u));
    let w = vec3<f32>(ld1(b3), ld1(b3 + 1u), ld1(b3 + 2u));
    let j0 = toScaledAngleAxis(quatMul(q, vec4<f32>(-g.xyz, g.w)));
    let j1 = w + j0 * p.y;
    qn = quatMul(fromScaledAngleAxis(p.x * (j0 + j1 * t)), g);
    wn = p.x * (w - j1 * (p.y * t));
  }
  st0(b4, qn.x);
  st0(b4 + 1u, qn.y);
  st0(b4 + 2u, qn.z);
  st0(b4 + 3u, qn.w);
  st1(b3, wn.x);
  st1(b3 + 1u, wn.y);
  st1(b3 + 2u, wn.z);
}
