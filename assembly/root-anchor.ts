// The root bone of each character, re-anchored at transitions as Motion-Matching does for its root
// (inertialize_pose_transition / inertialize_pose_update: the destination clip's root trajectory is
// moved to continue from where the character is), restricted to the heading (rotation about +Y)
// and the ground position (x, z): a hip root then never accumulates tilt or height, which decay as
// offsets like any bone's. Anchor of character c: rotation R (about +Y) and translation T (y = 0),
// world = R·p + T. The float64 oracle is src/reference/root-anchor.ts; docs/DECISIONS.md explains.
// The root of character c is bone c·bones + root of the pose arrays (x, y, z / x, y, z, w).
// Scalar float64 in both builds: one bone in `bones`, read with a stride of a whole skeleton,
// so four-lane gathers would cost more than the arithmetic they would share.
import { mulScalar, rotateScalar, sx, sy, sz, sw } from './quat-algebra';
import { jacobianBone } from './so3-jacobian';
import { f, put } from './f32-access';



/** The update: out root ← anchor(out root) in place: x ← R·x + T, v ← R·v, q ← R ⊗ q, w ← R·w. */
export function rootAnchorApply(
  outX: usize, outV: usize, outQ: usize, outW: usize, anchorQ: usize, anchorX: usize, count: i32, bones: i32, root: i32,
): void {
  for (let c = 0; c < count; c++) {
    const i = c * bones + root;
    const rx = f(anchorQ, 4 * c), ry = f(anchorQ, 4 * c + 1), rz = f(anchorQ, 4 * c + 2), rw = f(anchorQ, 4 * c + 3);
    rotateScalar(rx, ry, rz, rw, f(outX, 3 * i), f(outX, 3 * i + 1), f(outX, 3 * i + 2));
    put(outX, 3 * i, sx + f(anchorX, 3 * c)); put(outX, 3 * i + 1, sy + f(anchorX, 3 * c + 1)); put(outX, 3 * i + 2, sz + f(anchorX, 3 * c + 2));
    rotateVec(outV, i, rx, ry, rz, rw);
    rotateVec(outW, i, rx, ry, rz, rw);
    mulScalar(rx, ry, rz, rw, f(outQ, 4 * i), f(outQ, 4 * i + 1), f(outQ, 4 * i + 2), f(outQ, 4 * i + 3));
    put(outQ, 4 * i, sx); put(outQ, 4 * i + 1, sy); put(outQ, 4 * i + 2, sz); put(outQ, 4 * i + 3, sw);
  }
}

// @ts-ignore: decorator
@inline function rotateVec(p: usize, i: i32, rx: f64, ry: f64, rz: f64, rw: f64): void {
  rotateScalar(rx, ry, rz, rw, f(p, 3 * i), f(p, 3 * i + 1), f(p, 3 * i + 2));
  put(p, 3 * i, sx); put(p, 3 * i + 1, sy); put(p, 3 * i + 2, sz);
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
    const rx = f(anchorQ, 4 * c), ry = f(anchorQ, 4 * c + 1), rz = f(anchorQ, 4 * c + 2), rw = f(anchorQ, 4 * c + 3);
    const dqx = f(dstQ, 4 * i), dqy = f(dstQ, 4 * i + 1), dqz = f(dstQ, 4 * i + 2), dqw = f(dstQ, 4 * i + 3);
    const oqx = f(offQ, 4 * i), oqy = f(offQ, 4 * i + 1), oqz = f(offQ, 4 * i + 2), oqw = f(offQ, 4 * i + 3);
    // W_q = R ⊗ off_q ⊗ dst_q
    mulScalar(oqx, oqy, oqz, oqw, dqx, dqy, dqz, dqw);
    mulScalar(rx, ry, rz, rw, sx, sy, sz, sw);
    const wqx = sx, wqy = sy, wqz = sz, wqw = sw;
    // W_x = R·(dst_x + off_x) + T
    rotateScalar(rx, ry, rz, rw, f(dstX, 3 * i) + f(offX, 3 * i), f(dstX, 3 * i + 1) + f(offX, 3 * i + 1), f(dstX, 3 * i + 2) + f(offX, 3 * i + 2));
    const wxx = sx + f(anchorX, 3 * c), wxy = sy + f(anchorX, 3 * c + 1), wxz = sz + f(anchorX, 3 * c + 2);
    // W_v = R·(dst_v + off_v)
    rotateScalar(rx, ry, rz, rw, f(dstV, 3 * i) + f(offV, 3 * i), f(dstV, 3 * i + 1) + f(offV, 3 * i + 1), f(dstV, 3 * i + 2) + f(offV, 3 * i + 2));
    const wvx = sx, wvy = sy, wvz = sz;
    // W_w = R·(off_w + rotate(off_q, dst_w)), off_w being J·ṙ here (converted above)
    rotateScalar(oqx, oqy, oqz, oqw, f(dstW, 3 * i), f(dstW, 3 * i + 1), f(dstW, 3 * i + 2));
    rotateScalar(rx, ry, rz, rw, f(offW, 3 * i) + sx, f(offW, 3 * i + 1) + sy, f(offW, 3 * i + 2) + sz);
    const wwx = sx, wwy = sy, wwz = sz;
    // R' = heading(W_q) ⊗ inv(heading(dst_q)): both are rotations about +Y
    heading(wqy, wqw);
    const ay = hy, aw = hw;
    heading(dqy, dqw);
    mulScalar(0, ay, 0, aw, 0, -hy, 0, hw);
    // rounded to float32 here, as stored, so that the offsets below match the anchor the update applies
    const nrx = <f64><f32>sx, nry = <f64><f32>sy, nrz = <f64><f32>sz, nrw = <f64><f32>sw;
    // T' = W_x − R'·dst_x, on the ground (y = 0)
    rotateScalar(nrx, nry, nrz, nrw, f(dstX, 3 * i), f(dstX, 3 * i + 1), f(dstX, 3 * i + 2));
    const tx = <f64><f32>(wxx - sx), tz = <f64><f32>(wxz - sz);
    put(anchorQ, 4 * c, nrx); put(anchorQ, 4 * c + 1, nry); put(anchorQ, 4 * c + 2, nrz); put(anchorQ, 4 * c + 3, nrw);
    put(anchorX, 3 * c, tx); put(anchorX, 3 * c + 1, 0); put(anchorX, 3 * c + 2, tz);
    // offsets: W in the new anchor's space, minus dst
    rotateScalar(-nrx, -nry, -nrz, nrw, wxx - tx, wxy, wxz - tz);
    put(offX, 3 * i, sx - f(dstX, 3 * i)); put(offX, 3 * i + 1, sy - f(dstX, 3 * i + 1)); put(offX, 3 * i + 2, sz - f(dstX, 3 * i + 2));
    rotateScalar(-nrx, -nry, -nrz, nrw, wvx, wvy, wvz);
    put(offV, 3 * i, sx - f(dstV, 3 * i)); put(offV, 3 * i + 1, sy - f(dstV, 3 * i + 1)); put(offV, 3 * i + 2, sz - f(dstV, 3 * i + 2));
    mulScalar(-nrx, -nry, -nrz, nrw, wqx, wqy, wqz, wqw);
    mulScalar(sx, sy, sz, sw, -dqx, -dqy, -dqz, dqw);
    const sign: f64 = sw < 0 ? -1 : 1; // quat_abs
    const nqx = <f64><f32>(sign * sx), nqy = <f64><f32>(sign * sy), nqz = <f64><f32>(sign * sz), nqw = <f64><f32>(sign * sw);
    put(offQ, 4 * i, nqx); put(offQ, 4 * i + 1, nqy); put(offQ, 4 * i + 2, nqz); put(offQ, 4 * i + 3, nqw);
    rotateScalar(-nrx, -nry, -nrz, nrw, wwx, wwy, wwz);
    const lwx = sx, lwy = sy, lwz = sz;
    rotateScalar(nqx, nqy, nqz, nqw, f(dstW, 3 * i), f(dstW, 3 * i + 1), f(dstW, 3 * i + 2));
    put(offW, 3 * i, lwx - sx); put(offW, 3 * i + 1, lwy - sy); put(offW, 3 * i + 2, lwz - sz);
    jacobianBone(offQ, offW, i, true); // back to the rate of the new offset's rotation vector
  }
}
