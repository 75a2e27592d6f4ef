// Floats 0…11 of each instance matrix (column-major, 16 floats an instance) from its rotation
// and scale: the rotation·scale columns of three.js Matrix4.compose, written from the float64
// reference src/reference/instance-matrix.ts (composeInstanceMatrices), operation for operation;
// the translation (floats 12…14) and float 15 are not touched. One instance per invocation.
// Slots (see the header, src/backends/webgpu/shader-source.ts): 0 the matrices (16·n floats,
// written), 1 the quaternions (x, y, z, w: 4·n floats), 2 the scales (3·n floats).
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * C.row;
  if (i >= C.n) {
    return;
  }
  let x = ld1(4u * i);
  let y = ld1(4u * i + 1u);
  let z = ld1(4u * i + 2u);
  let w = ld1(4u * i + 3u);
  let sx = ld2(3u * i);
  let sy = ld2(3u * i + 1u);
  let sz = ld2(3u * i + 2u);
  let x2 = x + x;
  let y2 = y + y;
  let z2 = z + z;
  let xx = x * x2;
  let xy = x * y2;
  let xz = x * z2;
  let yy = y * y2;
  let yz = y * z2;
  let zz = z * z2;
  let wx = w * x2;
  let wy = w * y2;
  let wz = w * z2;
  let a = 16u * i;
  st0(a, (1.0 - (yy + zz)) * sx);
  st0(a + 1u, (xy + wz) * sx);
  st0(a + 2u, (xz - wy) * sx);
  st0(a + 3u, 0.0);
  st0(a + 4u, (xy - wz) * sy);
  st0(a + 5u, (1.0 - (xx + zz)) * sy);
  st0(a + 6u, (yz + wx) * sy);
  st0(a + 7u, 0.0);
  st0(a + 8u, (xz + wy) * sz);
  st0(a + 9u, (yz - wx) * sz);
  st0(a + 10u, (1.0 - (xx + yy)) * sz);
  st0(a + 11u, 0.0);
}
