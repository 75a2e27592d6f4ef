/**
 * The WGSL of one call shape: a header written here (the call's uniforms, one storage binding
 * per distinct GPUBuffer, loads and stores per operand slot, where the coefficients come from),
 * then the shared sources (shaders/*.wgsl, embedded by scripts/wgsl-sources.mjs) and the
 * kernel's body. One binding per buffer, not per operand, because WebGPU rejects two writable
 * bindings of overlapping ranges of one buffer, which an interleaved instance buffer needs.
 */
import { coefficients, compose, copy, damper, maths, quat, spring } from './wgsl.generated.js';

/** Threads per workgroup (docs/DECISIONS.md, "WebGPU: workgroup size"). */
export const WORKGROUP_SIZE = 64;

/** Operand slots: 0 x, 1 v, 2 g, 3 q, 4 and 5 the parameters. */
export const SLOTS = 6;

/** Where an operand slot reads from: binding k's buffer, nothing (0), or a uniform parameter. */
export type SlotSource = { buffer: number } | 'absent' | 'uniform';

/** The kernels: the springs, the damper, the quaternion spring, the strided copy of write()/read(), and the instance matrices' rotation·scale columns. */
export type KernelBody = 'spring' | 'damper' | 'copy' | 'quat' | 'compose';

/** Where a spring's coefficients (or the damper's factor) come from. */
export type CoefficientSource = 'uniform' | 'critical' | 'frequencyHalflife' | 'stiffnessDamping' | 'ratioHalflife' | 'none';

export interface ShaderShape {
  body: KernelBody;
  coefficients: CoefficientSource;
  slots: SlotSource[];
  /** Distinct buffers bound (bindings 1 … buffers). */
  buffers: number;
}

/** The bytes of the uniform block `Call` (see the header below). */
export const CALL_BYTES = 176;

const BODIES: Record<KernelBody, string> = { spring, damper, copy, quat, compose };

function slotFunctions(slot: number, source: SlotSource): string {
  const parameter = slot - 4; // 0 or 1 for the parameter slots
  if (source === 'absent') return `fn ld${slot}(i: u32) -> f32 { return 0.0; }\n`;
  if (source === 'uniform') return `fn ld${slot}(i: u32) -> f32 { return C.par[${parameter}]; }\n`;
  const b = `B${source.buffer}`;
  return `fn ld${slot}(i: u32) -> f32 { return ${b}[at(${slot}u, i)]; }\nfn st${slot}(i: u32, value: f32) { ${b}[at(${slot}u, i)] = value; }\n`;
}

function coefficientFunction(shape: ShaderShape): string {
  switch (shape.coefficients) {
    case 'uniform':
      if (shape.body === 'quat') return 'fn quatParams(i: u32) -> vec2<f32> { return C.coef0.xy; }\n';
      return shape.body === 'damper'
        ? 'fn factor(i: u32) -> f32 { return C.coef0.x; }\n'
        : 'fn coefficients(i: u32) -> Coef { return Coef(C.coef0.x, C.coef0.y, C.coef0.z, C.coef1.x, C.coef1.y, C.coef1.z); }\n';
    case 'critical':
      if (shape.body === 'quat') return 'fn quatParams(i: u32) -> vec2<f32> { return quatCritical(ld4(i), C.scal.y); }\n';
      return shape.body === 'damper'
        ? 'fn factor(i: u32) -> f32 { return damperFactor(ld4(i), C.scal.w); }\n'
        : 'fn coefficients(i: u32) -> Coef { return criticalCoefficients(ld4(i), C.scal.x, C.scal.y); }\n';
    case 'frequencyHalflife':
      return 'fn coefficients(i: u32) -> Coef { return frequencyHalflifeCoefficients(ld4(i), ld5(i), C.scal.x, C.scal.y, C.scal.z); }\n';
    case 'stiffnessDamping':
      return 'fn coefficients(i: u32) -> Coef { return stiffnessDampingCoefficients(ld4(i), ld5(i), C.scal.x); }\n';
    case 'ratioHalflife':
      return 'fn coefficients(i: u32) -> Coef { return ratioHalflifeCoefficients(ld4(i), ld5(i), C.scal.y, C.scal.x); }\n';
    case 'none':
      return '';
  }
}

/** A key naming the shape (the pipeline cache's). */
export function shapeKey(shape: ShaderShape): string {
  const slots = shape.slots.map((s) => (typeof s === 'string' ? s[0] : s.buffer)).join('');
  return `${shape.body}/${shape.coefficients}/${slots}`;
}

/** The complete WGSL of a shape. */
export function shaderSource(shape: ShaderShape): string {
  let header =
    `const WORKGROUP_SIZE: u32 = ${WORKGROUP_SIZE}u;\n` +
    // view[k]: operand k's first float, floats per item, floats from item to item
    'struct Call { n: u32, row: u32, pad0: u32, pad1: u32, view: array<vec4<u32>, 6>,\n' +
    '  coef0: vec4<f32>, coef1: vec4<f32>, scal: vec4<f32>, par: vec4<f32> }\n' +
    '@group(0) @binding(0) var<uniform> C: Call;\n';
  for (let b = 0; b < shape.buffers; b++) header += `@group(0) @binding(${b + 1}) var<storage, read_write> B${b}: array<f32>;\n`;
  header += 'fn at(slot: u32, i: u32) -> u32 { let w = C.view[slot]; return w.x + (i / w.y) * w.z + i % w.y; }\n';
  shape.slots.forEach((source, slot) => {
    header += slotFunctions(slot, source);
  });
  header += coefficientFunction(shape);
  return `${header}\n${maths}\n${coefficients}\n${BODIES[shape.body]}`;
}
