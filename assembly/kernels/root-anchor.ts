// The root bone of each character, re-anchored at transitions as Motion-Matching does for its root
// (inertialize_pose_transition / inertialize_pose_update: the destination clip's root trajectory is
// moved to continue from where the character is), restricted to the heading (rotation about +Y)
// and the ground position (x, z): a hip root then never accumulates tilt or height, which decay as
// offsets like any bone's. Anchor of character c: rotation R (about +Y) and translation T (y = 0),
// world = R·p + T. The float64 oracle is src/reference/root-anchor.ts; docs/DECISIONS.md explains.
// The root of character c is bone c·bones + root of the pose arrays (x, y, z / x, y, z, w).
// Scalar float64 in both builds: one bone in `bones`, read with a stride of a whole skeleton,
// so four-lane gathers would cost more than the arithmetic they would share.
import { quatMulScalar, quatRotateScalar, sx, sy, sz, sw } from '../quat/algebra';
import { readF32, writeF32 } from '../lanes/scalar';
import { jacobianBone } from '../quat/so3-jacobian';



/** The update: out root ← anchor(out root) in place: x ← R·x + T, v ← R·v, q ← R ⊗ q, w ← R·w. */
export function rootAnchorApply(
  outX: usize, outV: usize, outQ: usize, outW: usize, anchorQ: usize, anchorX: usize, count: i32, bones: i32, root: i32,
): void {
  for (let c = 0; c < count; c++) {
    const i = c * bones + root;
    const rx = readF32(anchorQ, 4 * c), ry = readF32(anchorQ, 4 * c + 1), rz = readF32(anchorQ, 4 * c + 2), rw = readF32(anchorQ, 4 * c + 3);
    quatRotateScalar(rx, ry, rz, rw, readF32(outX, 3 * i), readF32(outX, 3 * i + 1), readF32(outX, 3 * i + 2));
    writeF32(outX, 3 * i, sx + readF32(anchorX, 3 * c)); writeF32(outX, 3 * i + 1, sy + readF32(anchorX, 3 * c + 1)); writeF32(outX, 3 * i + 2, sz + readF32(anchorX, 3 * c + 2));
    rotateVec(outV, i, rx, ry, rz, rw);
    rotateVec(outW, i, rx, ry, rz, rw);
    quatMulScalar(rx, ry, rz, rw, readF32(outQ, 4 * i), readF32(outQ, 4 * i + 1), readF32(outQ, 4 * i + 2), readF32(outQ, 4 * i + 3));
    writeF32(outQ, 4 * i, sx); writeF32(outQ, 4 * i + 1, sy); writeF32(outQ, 4 * i + 2, sz); writeF32(outQ, 4 * i + 3, sw);
  }
}

// @ts-ignore: decorator
@inline function rotateVec(p: usize, i: i32, rx: f64, ry: f64, rz: f64, rw: f64): void {
  quatRotateScalar(rx, ry, rz, rw, readF32(p, 3 * i), readF32(p, 3 * i + 1), readF32(p, 3 * i + 2));
  writeF32(p, 3 * i, sx); writeF32(p, 3 * i + 1, sy); writeF32(p, 3 * i + 2, sz);
}

// Heading of a rotation: its twist about +Y, normalize([0, y, 0, w]) (identity when y = w = 0).
let hy: f64 = 0;
let hw: f64 = 1;

// @ts-ignore: decorator
@inline function heading(y: f64, w: f64): void {
  const len = Math.sqrt(y * y + w * w);
  if (len > 0) { hy = y / len; hw = w / len; } else { hy = 0; hw = 1; }
}

/**
 * Runs after the transitions of every bone (vector and quaternion), which left the root's offsets
 * such that dst + off is the root's output before the transition, in the old anchor's space (S).
 * With W = anchor(S) (the root in the world), the new anchor turns the destination's heading into
 * W's heading and puts the destination's ground position at W's: R' = heading(W_q) ⊗ inv(heading(dst_q)),
 * T' = W_x − R'·dst_x with T'_y = 0; the offsets become W in the new anchor's space minus dst:
 * off_x = R'⁻¹(W_x − T') − dst_x (only a height difference remains), off_v = R'⁻¹·W_v − dst_v,
 * off_q = abs(R'⁻¹ ⊗ W_q ⊗ inv(dst_q)), off_w = R'⁻¹·W_w − rotate(off_q, dst_w). So the output
 * anchor'(dst + off) is W again: continuous.
 */
export function rootAnchorTransition(
  offX: usize, offV: usize, offQ: usize, offW: usize, dstX: usize, dstV: usize, dstQ: usize, dstW: usize,
  anchorQ: usize, anchorX: usize, count: i32, bones: i32, root: i32,
): void {
  for (let c = 0; c < count; c++) {
    const i = c * bones + root;
    jacobianBone(offQ, offW, i, false); // off_w: the offset's angular velocity J·ṙ (so3-jacobian.ts)
    const rx = readF32(anchorQ, 4 * c), ry = readF32(anchorQ, 4 * c + 1), rz = readF32(anchorQ, 4 * c + 2), rw = readF32(anchorQ, 4 * c + 3);
    const dqx = readF32(dstQ, 4 * i), dqy = readF32(dstQ, 4 * i + 1), dqz = readF32(dstQ, 4 * i + 2), dqw = readF32(dstQ, 4 * i + 3);
    const oqx = readF32(offQ, 4 * i), oqy = readF32(offQ, 4 * i + 1), oqz = readF32(offQ, 4 * i + 2), oqw = readF32(offQ, 4 * i + 3);
    // W_q = R ⊗ off_q ⊗ dst_q
    quatMulScalar(oqx, oqy, oqz, oqw, dqx, dqy, dqz, dqw);
    quatMulScalar(rx, ry, rz, rw, sx, sy, sz, sw);
    const wqx = sx, wqy = sy, wqz = sz, wqw = sw;
    // W_x = R·(dst_x + off_x) + T
    quatRotateScalar(rx, ry, rz, rw, readF32(dstX, 3 * i) + readF32(offX, 3 * i), readF32(dstX, 3 * i + 1) + readF32(offX, 3 * i + 1), readF32(dstX, 3 * i + 2) + readF32(offX, 3 * i + 2));
    const wxx = sx + readF32(anchorX, 3 * c), wxy = sy + readF32(anchorX, 3 * c + 1), wxz = sz + readF32(anchorX, 3 * c + 2);
    // W_v = R·(dst_v + off_v)
    quatRotateScalar(rx, ry, rz, rw, readF32(dstV, 3 * i) + readF32(offV, 3 * i), readF32(dstV, 3 * i + 1) + readF32(offV, 3 * i + 1), readF32(dstV, 3 * i + 2) + readF32(offV, 3 * i + 2));
    const wvx = sx, wvy = sy, wvz = sz;
    // W_w = R·(off_w + rotate(off_q, dst_w)), off_w being J·ṙ here (converted above)
    quatRotateScalar(oqx, oqy, oqz, oqw, readF32(dstW, 3 * i), readF32(dstW, 3 * i + 1), readF32(dstW, 3 * i + 2));
    quatRotateScalar(rx, ry, rz, rw, readF32(offW, 3 * i) + sx, readF32(offW, 3 * i + 1) + sy, readF32(offW, 3 * i + 2) + sz);
    const wwx = sx, wwy = sy, wwz = sz;
    // R' = heading(W_q) ⊗ inv(heading(dst_q)): both are rotations about +Y
    heading(wqy, wqw);
    const ay = hy, aw = hw;
    heading(dqy, dqw);
    quatMulScalar(0, ay, 0, aw, 0, -hy, 0, hw);
    // rounded to float32 here, as stored, so that the offsets below match the anchor the update applies
    const nrx = <f64><f32>sx, nry = <f64><f32>sy, nrz = <f64><f32>sz, nrw = <f64><f32>sw;
    // T' = W_x − R'·dst_x, on the ground (y = 0)
    quatRotateScalar(nrx, nry, nrz, nrw, readF32(dstX, 3 * i), readF32(dstX, 3 * i + 1), readF32(dstX, 3 * i + 2));
    const tx = <f64><f32>(wxx - sx), tz = <f64><f32>(wxz - sz);
    writeF32(anchorQ, 4 * c, nrx); writeF32(anchorQ, 4 * c + 1, nry); writeF32(anchorQ, 4 * c + 2, nrz); writeF32(anchorQ, 4 * c + 3, nrw);
    writeF32(anchorX, 3 * c, tx); writeF32(anchorX, 3 * c + 1, 0); writeF32(anchorX, 3 * c + 2, tz);
    // offsets: W in the new anchor's space, minus dst
    quatRotateScalar(-nrx, -nry, -nrz, nrw, wxx - tx, wxy, wxz - tz);
    writeF32(offX, 3 * i, sx - readF32(dstX, 3 * i)); writeF32(offX, 3 * i + 1, sy - readF32(dstX, 3 * i + 1)); writeF32(offX, 3 * i + 2, sz - readF32(dstX, 3 * i + 2));
    quatRotateScalar(-nrx, -nry, -nrz, nrw, wvx, wvy, wvz);
    writeF32(offV, 3 * i, sx - readF32(dstV, 3 * i)); writeF32(offV, 3 * i + 1, sy - readF32(dstV, 3 * i + 1)); writeF32(offV, 3 * i + 2, sz - readF32(dstV, 3 * i + 2));
    quatMulScalar(-nrx, -nry, -nrz, nrw, wqx, wqy, wqz, wqw);
    quatMulScalar(sx, sy, sz, sw, -dqx, -dqy, -dqz, dqw);
    const sign: f64 = sw < 0 ? -1 : 1; // quat_abs
    const nqx = <f64><f32>(sign * sx), nqy = <f64><f32>(sign * sy), nqz = <f64><f32>(sign * sz), nqw = <f64><f32>(sign * sw);
    writeF32(offQ, 4 * i, nqx); writeF32(offQ, 4 * i + 1, nqy); writeF32(offQ, 4 * i + 2, nqz); writeF32(offQ, 4 * i + 3, nqw);
    quatRotateScalar(-nrx, -nry, -nrz, nrw, wwx, wwy, wwz);
    const lwx = sx, lwy = sy, lwz = sz;
    quatRotateScalar(nqx, nqy, nqz, nqw, readF32(dstW, 3 * i), readF32(dstW, 3 * i + 1), readF32(dstW, 3 * i + 2));
    writeF32(offW, 3 * i, lwx - sx); writeF32(offW, 3 * i + 1, lwy - sy); writeF32(offW, 3 * i + 2, lwz - sz);
    jacobianBone(offQ, offW, i, true); // back to the rate of the new offset's rotation vector
  }
}
