// The linear springs (criticalSpringDamper, springDamper, simple, decay): one element per
// invocation, read whole before it is written (so g or q may be the very array x or v).
// The header the host puts before this file (src/backends/webgpu/shader-source.ts) defines the
// call's uniforms C, the loads ldK / stores stK of operand slot K (0 x, 1 v, 2 g, 3 q, 4 and 5 the
// parameters; an absent goal loads 0) and coefficients(i) (uniform from the host, or per element
// from coefficients.wgsl).
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * C.row;
  if (i >= C.n) {
    return;
  }
  let c = coefficients(i);
  let g = ld2(i);
  let q = ld3(i);
  let y = ld0(i) - g;
  let v = ld1(i);
  st0(i, g + c.xx * y + c.xv * v + c.xq * q);
  st1(i, c.vx * y + c.vv * v + c.vq * q);
}
