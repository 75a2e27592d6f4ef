// Moves floats between a strided view (slot 0, written) and a packed one (slot 1, read): how
// write() and read() reach the elements of a wrapped interleaved buffer without touching the
// bytes between them.
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * C.row;
  if (i >= C.n) {
    return;
  }
  st0(i, ld1(i));
}
