// Spring bones: a crowd of procedurally built VRM-like avatars (hair, bangs, skirts, tails and ribbons as
// three-vrm spring-bone joints) walking in circles. Their spring bones run either through three-vrm (every
// avatar's manager.update(dt)) or through spring-solver/vrm's SpringBones (one bones.update(dt) for the whole
// crowd, one kernel call), at a chosen simulation rate. Below, a trace of one hair tip simulated at that rate
// and at 60 Hz: three-vrm's drag acts per frame, so the two differ; with fixedStep: 1/60 they do not.
import {
  AmbientLight,
  BufferAttribute,
  BufferGeometry,
  CapsuleGeometry,
  Color,
  DirectionalLight,
  Fog,
  GridHelper,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Solver } from 'spring-solver';
import { followWidth } from '../common/plot-width.js';
import { SpringBones, type SpringBonesOptions } from 'spring-solver/vrm';
// The test fixture builds the avatars (no model file): a humanoid of plain Bones and three-vrm's own
// VRMSpringBoneJoint / VRMSpringBoneCollider / VRMSpringBoneManager.
import { buildAvatar, buildCrowd } from '../../../../test/fixtures/vrm-avatars.js';
import { mulberry32 } from '../../../../tools/mulberry32.js';
import { fitRendererToCanvas } from './resize.js';

type Avatar = ReturnType<typeof buildAvatar>;
type Humanoid = Avatar['bones'];
export type SpringMode = 'three-vrm' | 'springbones';

export const AVATAR_COUNTS = [20, 50, 100, 200];
/** Hz: the simulation rates offered (each update gets dt = 1 / rate). */
export const RATES = [30, 60, 144];
export const FIXED_STEP = 1 / 60;
const SPACING = 3.6; // metres between the avatars' circles
const SEED = 17;
/** The most updates one drawn frame runs (past that, the simulation runs slower than real time). */
const MAX_UPDATES_PER_FRAME = 4;
/** The traced avatar and strand, and how many seconds the trace shows. */
const PROBE_SEED = 10;
const PROBE_CHAIN = 'hair7'; // a strand at the back of the head
const TRACE_SECONDS = 6;
const TRACE_COLORS = { rate: '#2563eb', reference: '#94a3b8' };

/** A walk in a circle around the avatar's spot, facing its way; the humanoid swings as the fixture's walk. */
function walkOf(avatar: Avatar): (t: number) => void {
  const next = mulberry32(avatar.seed ^ 0x5bd1e995);
  const radius = 0.7 + 0.7 * next(); // m
  const turn = ((next() < 0.5 ? 1 : -1) * (0.7 + 0.4 * next())) / radius; // rad/s: 0.7–1.1 m/s along the circle
  const start = 2 * Math.PI * next();
  const way = Math.sign(turn);
  return (t) => {
    avatar.pose(t); // the humanoid bones (its root also teleports every 2 s: replaced below)
    const a = start + turn * t;
    avatar.root.position.set(radius * Math.cos(a), 0, radius * Math.sin(a));
    avatar.root.rotation.set(0, Math.atan2(-way * Math.sin(a), way * Math.cos(a)) + 0.15 * Math.sin(2.1 * t), 0);
  };
}

/** One capsule of the body, in the frame of a humanoid bone (a sphere when from = to). */
interface Part {
  bone: keyof Humanoid;
  from: Vector3;
  to: Vector3;
  radius: number;
  skin?: boolean;
}

function bodyParts(b: Humanoid): Part[] {
  const v = (x: number, y: number, z: number) => new Vector3(x, y, z);
  const bone = (name: keyof Humanoid, child: keyof Humanoid, radius: number, skin = false): Part => ({
    bone: name,
    from: v(0, 0, 0),
    to: b[child].position.clone(),
    radius,
    skin,
  });
  const hand = (name: keyof Humanoid, at: Vector3): Part => ({ bone: name, from: at, to: at.clone(), radius: 0.04, skin: true });
  const parts: Part[] = [
    { bone: 'hips', from: v(-0.07, -0.04, 0), to: v(0.07, -0.04, 0), radius: 0.09 },
    bone('spine', 'chest', 0.095),
    { bone: 'chest', from: v(0, 0.03, 0), to: v(0, 0.15, 0), radius: 0.12 },
    bone('neck', 'head', 0.04, true),
    { bone: 'head', from: v(0, 0.1, 0.01), to: v(0, 0.1, 0.01), radius: 0.1, skin: true }, // the head collider
  ];
  for (const side of ['left', 'right'] as const) {
    parts.push(
      bone(`${side}Shoulder`, `${side}UpperArm`, 0.045),
      bone(`${side}UpperArm`, `${side}LowerArm`, 0.042),
      bone(`${side}LowerArm`, `${side}Hand`, 0.036, true),
      hand(`${side}Hand`, b[`${side}Hand`].position.clone().setLength(0.05)), // past the wrist, as the hand collider
      bone(`${side}UpperLeg`, `${side}LowerLeg`, 0.065),
      bone(`${side}LowerLeg`, `${side}Foot`, 0.05),
      { bone: `${side}Foot`, from: v(0, 0, -0.02), to: v(0, -0.01, 0.12), radius: 0.035 },
    );
  }
  return parts;
}

/** The matrix placing a capsule along the y axis (CapsuleGeometry's) on the segment from → to. */
function partMatrix(p: Part): Matrix4 {
  const direction = p.to.clone().sub(p.from);
  const rotation =
    direction.lengthSq() > 0 ? new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), direction.normalize()) : new Quaternion();
  return new Matrix4().compose(p.from.clone().add(p.to).multiplyScalar(0.5), rotation, new Vector3(1, 1, 1));
}

const HAIR = [0x3f2a1d, 0x8b5a2b, 0xd4a017, 0x1e3a8a, 0xbe185d, 0x111827, 0x7c3aed, 0xe5e7eb];
const KIND_COLORS: Record<string, number> = { tail: 0xc2410c, chest: 0xdc2626, arm: 0xdc2626, branch: 0xf59e0b };

/** A crowd on screen: its avatars, their walks and what draws them. */
interface CrowdState {
  avatars: Avatar[];
  walks: ((t: number) => void)[];
  parts: { part: Part; local: Matrix4; mesh: InstancedMesh }[];
  lines: LineSegments;
  /** Each drawn joint: its bone and the point its segment ends at, in the bone's frame (three-vrm's). */
  segments: { bone: Object3D; tip: Vector3 }[];
  joints: number;
}

/** One avatar simulated on its own for the trace. */
interface Probe {
  avatar: Avatar;
  walk: (t: number) => void;
  bones: SpringBones;
  time: number;
  times: number[];
  angles: number[];
}

export class SpringBonesSection {
  mode: SpringMode = 'springbones';
  rate = 60;
  fixedStep = false;
  /** Smoothed ms per update (one simulated frame of the whole crowd) of each mode; NaN until it ran. */
  readonly ms: Record<SpringMode, number> = { 'three-vrm': Number.NaN, springbones: Number.NaN };
  /** Drawn frames, and updates (simulated frames) run. */
  frames = 0;
  updates = 0;
  /** Updates per drawn frame (smoothed), and whether the simulation had to run slower than real time. */
  updatesPerFrame = 0;
  behind = false;
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(40, 2, 0.1, 300);
  private crowd: CrowdState | null = null;
  private bones: SpringBones | null = null;
  private time = 0;
  private pending = 0;
  private probes: { rate: Probe; reference: Probe } | null = null;
  private readonly plot: uPlot;

  constructor(
    canvas: HTMLCanvasElement,
    chart: HTMLElement,
    private solver: Solver,
  ) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    const background = new Color(0xe2e8f0);
    this.scene.background = background;
    this.scene.fog = new Fog(background, 18, 55);
    this.scene.add(new AmbientLight(0xffffff, 1.3));
    const sun = new DirectionalLight(0xffffff, 2);
    sun.position.set(4, 10, 6);
    this.scene.add(sun);
    const ground = new Mesh(new PlaneGeometry(300, 300), new MeshLambertMaterial({ color: 0xcbd5e1 }));
    ground.rotation.x = -Math.PI / 2;
    this.scene.add(ground, new GridHelper(120, 60, 0xb6c2d1, 0xb6c2d1));
    this.plot = new uPlot(
      {
        width: Math.max(240, chart.clientWidth || 600), // the chart's own box: it must fit a 390 px page
        height: 170,
        scales: { x: { time: false } },
        legend: { live: false },
        axes: [{ label: 's' }, { label: 'tip angle, °' }],
        series: [
          { label: 's' },
          { label: '60 Hz', stroke: TRACE_COLORS.rate, width: 2, points: { show: false }, spanGaps: true },
          { label: '60 Hz', stroke: TRACE_COLORS.reference, width: 2, dash: [6, 4], points: { show: false }, spanGaps: true },
        ],
      },
      [[], [], []],
      chart,
    );
    followWidth(this.plot, chart);
  }

  /** Builds a crowd of `count` avatars (and the probes), in the current mode. */
  build(count: number): void {
    this.dropCrowd();
    const { avatars } = buildCrowd({ count, seed: SEED, spacing: SPACING });
    const walks = avatars.map(walkOf);
    // Start where the walk starts (buildCrowd reset the joints at its own pose(0)).
    for (const [k, avatar] of avatars.entries()) {
      walks[k]!(0);
      avatar.root.updateWorldMatrix(true, true);
      avatar.manager.reset();
    }
    this.time = 0;
    this.pending = 0;
    this.ms['three-vrm'] = this.ms.springbones = Number.NaN; // timings of this crowd only

    const parts = bodyParts(avatars[0]!.bones).map((part) => {
      const length = part.from.distanceTo(part.to);
      const material = new MeshLambertMaterial({ color: part.skin ? 0xf1c7a5 : 0xffffff });
      const mesh = new InstancedMesh(new CapsuleGeometry(part.radius, length, 2, 8), material, count);
      mesh.frustumCulled = false;
      if (!part.skin) for (let k = 0; k < count; k++) mesh.setColorAt(k, bodyColor(k));
      this.scene.add(mesh);
      return { part, local: partMatrix(part), mesh };
    });

    const segments: CrowdState['segments'] = [];
    const colors: number[] = [];
    const color = new Color();
    for (const [k, avatar] of avatars.entries()) {
      const hair = HAIR[k % HAIR.length]!;
      for (const chain of avatar.chains) {
        color.set(chain.kind === 'skirt' ? bodyColor(k).multiplyScalar(0.75) : (KIND_COLORS[chain.kind] ?? hair));
        for (const joint of chain.joints) {
          segments.push({ bone: joint.bone, tip: joint.initialLocalChildPosition.clone() });
          colors.push(color.r, color.g, color.b, color.r, color.g, color.b);
        }
      }
    }
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(segments.length * 6), 3));
    geometry.setAttribute('color', new BufferAttribute(new Float32Array(colors), 3));
    const lines = new LineSegments(geometry, new LineBasicMaterial({ vertexColors: true }));
    lines.frustumCulled = false;
    this.scene.add(lines);

    this.crowd = { avatars, walks, parts, lines, segments, joints: segments.length };
    if (this.mode === 'springbones') this.attach();
    this.restartTrace();
    const side = Math.ceil(Math.sqrt(count)) * SPACING;
    this.camera.position.set(side * 0.1, 2.2 + side * 0.07, side * 0.5 + 2.5);
    this.camera.lookAt(0, 0.3, side * 0.5 - 8);
  }

  get avatarCount(): number {
    return this.crowd?.avatars.length ?? 0;
  }

  get jointCount(): number {
    return this.crowd?.joints ?? 0;
  }

  /** three-vrm (each manager's own update) or SpringBones (one update for the crowd); the state carries on. */
  setMode(mode: SpringMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    if (mode === 'springbones') this.attach();
    else this.detach();
  }

  setRate(rate: number): void {
    this.rate = rate;
    this.pending = 0;
    this.restartTrace();
  }

  /** The threads SpringBones runs on (its solver's). */
  get threads(): number {
    return this.solver.threads;
  }

  /**
   * SpringBones on another solver (another thread count): the joints' state carries on, SpringBones' time is
   * measured again. The caller disposes the old solver after.
   */
  setSolver(solver: Solver): void {
    this.solver = solver;
    this.ms.springbones = Number.NaN;
    if (this.mode === 'springbones') {
      this.detach();
      this.attach();
    }
    this.restartTrace();
  }

  /** SpringBones with or without fixedStep: 1/60 (three-vrm has no fixed step: its crowd is unchanged). */
  setFixedStep(on: boolean): void {
    this.fixedStep = on;
    if (this.mode === 'springbones') {
      this.detach();
      this.attach();
    }
    this.restartTrace();
  }

  /** One drawn frame of `dt` seconds: as many updates at the chosen rate as the time allows, then drawing. */
  frame(dt: number): void {
    const crowd = this.crowd;
    if (!crowd) return;
    const h = 1 / this.rate;
    this.pending += dt;
    let updates = Math.floor(this.pending / h + 1e-6);
    this.behind = updates > MAX_UPDATES_PER_FRAME;
    if (this.behind) {
      updates = MAX_UPDATES_PER_FRAME;
      this.pending = 0;
    } else this.pending -= updates * h;
    for (let u = 0; u < updates; u++) {
      this.time += h;
      for (const walk of crowd.walks) walk(this.time);
      const start = performance.now();
      // ---- the spring bones of the whole crowd: what the timings measure ----
      if (this.bones) this.bones.update(h);
      else for (const avatar of crowd.avatars) avatar.manager.update(h);
      // ----
      const ms = performance.now() - start;
      const last = this.ms[this.mode];
      this.ms[this.mode] = Number.isNaN(last) ? ms : last + 0.05 * (ms - last);
      this.updates++;
      this.stepProbes(h);
    }
    this.updatesPerFrame += 0.05 * (updates - this.updatesPerFrame);
    this.frames++;
    this.draw(crowd);
    this.drawTrace();
  }

  /** The traced tip at the chosen rate against 60 Hz: seconds traced and the RMS difference (°). */
  trace(): { seconds: number; rmsDegrees: number } {
    const p = this.probes;
    if (!p) return { seconds: 0, rmsDegrees: Number.NaN };
    // the rate's samples interpolated at the 60 Hz ones
    const { times, angles } = p.rate;
    let sum = 0,
      n = 0,
      i = 0;
    for (let k = 0; k < p.reference.times.length; k++) {
      const t = p.reference.times[k]!;
      while (i + 1 < times.length && times[i + 1]! < t) i++;
      if (i + 1 >= times.length || times[i]! > t) continue;
      const w = (t - times[i]!) / (times[i + 1]! - times[i]!);
      const d = angles[i]! + w * (angles[i + 1]! - angles[i]!) - p.reference.angles[k]!;
      sum += d * d;
      n++;
    }
    return { seconds: Math.min(p.rate.time, p.reference.time), rmsDegrees: n > 0 ? Math.sqrt(sum / n) : Number.NaN };
  }

  private attach(): void {
    if (!this.crowd || this.bones) return;
    const options: SpringBonesOptions = this.fixedStep ? { fixedStep: FIXED_STEP } : {};
    this.bones = new SpringBones(
      this.solver,
      this.crowd.avatars.map((a) => a.manager),
      options,
    );
  }

  /** The managers back to three-vrm, with their joints' state. */
  private detach(): void {
    this.bones?.dispose();
    this.bones = null;
  }

  private dropCrowd(): void {
    this.detach();
    const crowd = this.crowd;
    if (!crowd) return;
    for (const { mesh } of crowd.parts) {
      this.scene.remove(mesh);
      mesh.geometry.dispose();
      (mesh.material as MeshLambertMaterial).dispose();
      mesh.dispose();
    }
    this.scene.remove(crowd.lines);
    crowd.lines.geometry.dispose();
    (crowd.lines.material as LineBasicMaterial).dispose();
    this.crowd = null;
  }

  /** Two copies of one avatar, one at the chosen rate and one at 60 Hz, from the start of their walk. */
  private restartTrace(): void {
    if (this.probes) for (const p of Object.values(this.probes)) p.bones.dispose();
    const probe = (): Probe => {
      const avatar = buildAvatar({ seed: PROBE_SEED });
      const walk = walkOf(avatar);
      walk(0);
      avatar.root.updateWorldMatrix(true, true);
      avatar.manager.reset();
      const bones = new SpringBones(this.solver, [avatar.manager], this.fixedStep ? { fixedStep: FIXED_STEP } : {});
      return { avatar, walk, bones, time: 0, times: [], angles: [] };
    };
    this.probes = { rate: probe(), reference: probe() };
    const label = (hz: number, reference = '') => `${hz} Hz${reference}${this.fixedStep ? ', fixedStep 1/60' : ''}`;
    this.plot.series[1]!.label = label(this.rate);
    this.plot.series[2]!.label = label(60, ' (reference)');
    // uPlot keeps the legend's text from its construction: set it too (the last two rows; x has one only when live)
    const legend = [...this.plot.root.querySelectorAll('.u-legend .u-series .u-label')].slice(-2);
    if (legend.length === 2) [legend[0]!.textContent, legend[1]!.textContent] = [label(this.rate), label(60, ' (reference)')];
  }

  /** The probe at the chosen rate takes this update's step; the one at 60 Hz catches up to its time. */
  private stepProbes(h: number): void {
    const p = this.probes;
    if (!p) return;
    stepProbe(p.rate, h);
    while (p.reference.time + 1 / 60 <= p.rate.time + 1e-9) stepProbe(p.reference, 1 / 60);
  }

  private draw(crowd: CrowdState): void {
    // The spring updates leave the joints' and their parents' matrixWorld current, not the legs': update the
    // humanoid from its leaves.
    for (const { bones: b } of crowd.avatars) {
      for (const leaf of [b.head, b.leftHand, b.rightHand, b.leftFoot, b.rightFoot]) leaf.updateWorldMatrix(true, false);
    }
    const m = new Matrix4();
    for (const { part, local, mesh } of crowd.parts) {
      for (const [k, avatar] of crowd.avatars.entries())
        mesh.setMatrixAt(k, m.multiplyMatrices(avatar.bones[part.bone].matrixWorld, local));
      mesh.instanceMatrix.needsUpdate = true;
    }
    const position = crowd.lines.geometry.getAttribute('position') as BufferAttribute;
    const out = position.array as Float32Array;
    for (let j = 0, o = 0; j < crowd.segments.length; j++, o += 6) {
      const { bone, tip } = crowd.segments[j]!;
      const e = bone.matrixWorld.elements;
      out[o] = e[12]!;
      out[o + 1] = e[13]!;
      out[o + 2] = e[14]!;
      out[o + 3] = e[0]! * tip.x + e[4]! * tip.y + e[8]! * tip.z + e[12]!;
      out[o + 4] = e[1]! * tip.x + e[5]! * tip.y + e[9]! * tip.z + e[13]!;
      out[o + 5] = e[2]! * tip.x + e[6]! * tip.y + e[10]! * tip.z + e[14]!;
    }
    position.needsUpdate = true;
    fitRendererToCanvas(this.renderer, this.camera);
    this.renderer.render(this.scene, this.camera);
  }

  private drawTrace(): void {
    const p = this.probes;
    if (!p) return;
    // x: the union of both runs' sample times; each series null where it has no sample (spanGaps joins them)
    const xs: number[] = [];
    const a: (number | null)[] = [];
    const b: (number | null)[] = [];
    let i = 0,
      k = 0;
    const r = p.rate,
      f = p.reference;
    while (i < r.times.length || k < f.times.length) {
      const ti = r.times[i] ?? Number.POSITIVE_INFINITY,
        tk = f.times[k] ?? Number.POSITIVE_INFINITY;
      const t = Math.min(ti, tk);
      xs.push(t);
      a.push(ti - t < 1e-9 ? r.angles[i++]! : null);
      b.push(tk - t < 1e-9 ? f.angles[k++]! : null);
    }
    this.plot.setData([xs, a, b]);
  }
}

const toLocal = new Matrix4();
const root = new Vector3();
const tip = new Vector3();

/**
 * One update of a probe, and the angle of its traced strand's tip: the sideways angle (about the head's
 * forward axis) of the line from the strand's first joint to its tip, in the head's frame.
 */
function stepProbe(p: Probe, h: number): void {
  p.time += h;
  p.walk(p.time);
  p.bones.update(h);
  const chain = p.avatar.chains.find((c) => c.name === PROBE_CHAIN)!;
  const first = chain.joints[0]!,
    last = chain.joints[chain.joints.length - 1]!;
  const head = first.bone.parent!;
  head.updateWorldMatrix(true, false);
  toLocal.copy(head.matrixWorld).invert();
  root.setFromMatrixPosition(first.bone.matrixWorld).applyMatrix4(toLocal);
  tip.copy(last.initialLocalChildPosition).applyMatrix4(last.bone.matrixWorld).applyMatrix4(toLocal).sub(root);
  p.times.push(p.time);
  p.angles.push((Math.atan2(tip.x, Math.hypot(tip.y, tip.z)) * 180) / Math.PI);
  while (p.times.length > 0 && p.times[0]! < p.time - TRACE_SECONDS) {
    p.times.shift();
    p.angles.shift();
  }
}

function bodyColor(k: number): Color {
  return new Color().setHSL((k * 0.161) % 1, 0.45, 0.55);
}
