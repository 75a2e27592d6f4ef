// Holden's damper_exact: x ← g + (x − g)·f, f = e^{−ln2·dt/halflife} (slots 0 x, 2 g, 4 halflife;
// factor(i) from the header: uniform from the host, or damperFactor per element).
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * C.row;
  if (i >= C.n) {
    return;
  }
  let g = ld2(i);
  st0(i, g + (ld0(i) - g) * factor(i));
}

// f = e^{−ln2·t/h}; halflife 0 (or e below 2^-125) gives 0: x snaps to g.
fn damperFactor(h: f32, ln2T: f32) -> f32 {
  if (!(h >= MIN_HALFLIFE) || !(ln2T < h * EXP_NEG_MAX)) {
    return 0.0;
  }
  return expNeg(ln2T / h);
}
