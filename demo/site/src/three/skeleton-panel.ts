/**
 * The skeleton panel of the three.js page: the pirouette (three's BVHLoader) played by three
 * AnimationMixers side by side, through a Jump: no blending (the pose snaps), crossFadeTo(0.2),
 * and InertializedMixer. Bones are drawn as instanced capsules (one InstancedMesh a skeleton,
 * one WebGLRenderer for the three views). Below: the hip's angular speed through the jump for
 * each, and the code of the inertialized mixer.
 */
import {
  AnimationMixer,
  Box3,
  CapsuleGeometry,
  Color,
  DirectionalLight,
  HemisphereLight,
  InstancedMesh,
  Matrix4,
  MeshStandardMaterial,
  Object3D,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
  type AnimationAction,
  type Bone,
} from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Solver } from 'spring-solver';
import { InertializedMixer } from 'spring-solver/three';
import { followWidth } from '../common/plot-width.js';

/** The code shown on the page. */
export const MIXER_SNIPPET = `import { createSolver } from 'spring-solver';
import { InertializedMixer } from 'spring-solver/three';

const solver = await createSolver();
const im = new InertializedMixer(solver, mixer, { halflife: 0.1 });
// switch or jump in any way, then:
action.time = t;
im.transition();
// every frame, instead of mixer.update(dt):
im.update(dt);`;

/** The jump targets and the span played: the moving part of the clip (s). */
const MOVING = [0.5, 2.0] as const;
/** Past this time the panel jumps by itself, so that the clip's own loop point never shows. */
const LATEST = 2.6;
const CROSSFADE = 0.2;
/** s of angular speed history in the plot. */
const HISTORY = 3;
const COLORS = { none: '#dc2626', crossfade: '#f59e0b', inertialized: '#2563eb' } as const;
type Kind = keyof typeof COLORS;
const TITLES: Record<Kind, string> = { none: 'No blending', crossfade: 'crossFadeTo(0.2)', inertialized: 'InertializedMixer' };

/** One skeleton: its bones under a root, a mixer, and capsules drawn between each bone and its parent. */
class Rig {
  readonly root = new Object3D();
  readonly bones: Object3D[];
  readonly mixer: AnimationMixer;
  readonly scene = new Scene();
  private readonly capsules: InstancedMesh;
  private readonly links: [Object3D, Object3D][];
  private previous = new Quaternion();
  private watched: Object3D;

  constructor(source: Bone[], color: string) {
    const hip = source[0]!.clone();
    this.root.add(hip);
    this.bones = source.map((b) => hip.getObjectByName(b.name)!);
    this.mixer = new AnimationMixer(this.root);
    this.links = this.bones.filter((b) => b.parent && b.parent !== this.root).map((b) => [b.parent!, b]);
    const geometry = new CapsuleGeometry(0.5, 1, 4, 8); // 2 units long along +Y, scaled to each bone in draw()
    this.capsules = new InstancedMesh(geometry, new MeshStandardMaterial({ color: new Color(color), roughness: 0.6 }), this.links.length);
    this.scene.add(this.root, this.capsules, new HemisphereLight(0xffffff, 0x445566, 1.6));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(1, 2, 1.5);
    this.scene.add(sun);
    this.watched = this.bones[0]!;
    this.previous.copy(this.watched.quaternion);
  }

  /** The hip's angular speed (rad/s) since the last call, dt s ago. */
  angularSpeed(dt: number): number {
    const q = this.watched.quaternion;
    const d = Math.min(1, Math.abs(q.dot(this.previous)));
    this.previous.copy(q);
    return dt > 0 ? (2 * Math.acos(d)) / dt : 0;
  }

  /** Places each capsule between a bone and its parent (world positions). */
  draw(): void {
    this.root.updateMatrixWorld(true);
    const a = new Vector3(),
      b = new Vector3(),
      d = new Vector3(),
      m = new Matrix4(),
      q = new Quaternion();
    const up = new Vector3(0, 1, 0);
    this.links.forEach(([parent, child], k) => {
      parent.getWorldPosition(a);
      child.getWorldPosition(b);
      d.subVectors(b, a);
      const length = Math.max(d.length(), 1e-6);
      q.setFromUnitVectors(up, d.divideScalar(length));
      m.compose(a.add(b).multiplyScalar(0.5), q, new Vector3(3, length / 2, 3));
      this.capsules.setMatrixAt(k, m);
    });
    this.capsules.instanceMatrix.needsUpdate = true;
  }

  dispose(): void {
    this.capsules.geometry.dispose();
    (this.capsules.material as MeshStandardMaterial).dispose();
    this.mixer.stopAllAction();
  }
}

/**
 * Mounts the panel into `container`: the three views, a Jump button, a halflife slider, the plot
 * and the code. `bvhText` is the pirouette's BVH file. Returns dispose(), which stops the loop and
 * frees the WebGL and solver resources.
 */
/** What the page's tests read: jumps so far, and each view's largest angular speed since the last jump (rad/s). */
export interface SkeletonPanel {
  dispose(): void;
  jumps(): number;
  peakSinceJump(kind: 'none' | 'crossfade' | 'inertialized'): number;
}

export function mountSkeletonPanel(container: HTMLElement, solver: Solver, bvhText: string): SkeletonPanel {
  const { skeleton, clip } = new BVHLoader().parse(bvhText);
  const rigs: Record<Kind, Rig> = {
    none: new Rig(skeleton.bones, COLORS.none),
    crossfade: new Rig(skeleton.bones, COLORS.crossfade),
    inertialized: new Rig(skeleton.bones, COLORS.inertialized),
  };
  const jumpTarget = clip.clone(); // the crossfade's second action plays the same motion from elsewhere
  const actions = {
    none: rigs.none.mixer.clipAction(clip).play(),
    crossfade: [rigs.crossfade.mixer.clipAction(clip).play(), rigs.crossfade.mixer.clipAction(jumpTarget)] as [
      AnimationAction,
      AnimationAction,
    ],
    inertialized: rigs.inertialized.mixer.clipAction(clip).play(),
  };
  let crossfadeActive = 0;
  let halflife = 0.1;

  // DOM: controls, canvas, plot, code
  const panel = document.createElement('div');
  panel.className = 'skeleton-panel';
  const controls = document.createElement('div');
  controls.className = 'controls';
  const jumpButton = document.createElement('button');
  jumpButton.type = 'button';
  jumpButton.textContent = 'Jump';
  const sliderLabel = document.createElement('label');
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', min: '0.02', max: '0.5', step: '0.01', value: String(halflife) });
  const sliderValue = document.createElement('output');
  sliderValue.textContent = `${halflife.toFixed(2)} s`;
  sliderLabel.append('halflife ', slider, ' ', sliderValue);
  controls.append(jumpButton, ' ', sliderLabel);
  const titles = document.createElement('div');
  titles.className = 'titles'; // one above each third of the canvas (style.css)
  for (const kind of Object.keys(COLORS) as Kind[]) {
    const t = document.createElement('div');
    t.textContent = TITLES[kind];
    t.style.color = COLORS[kind];
    titles.append(t);
  }
  const canvas = document.createElement('canvas');
  canvas.id = 'skeleton-canvas';
  canvas.style.cssText = 'width:100%;height:360px;display:block';
  const chart = document.createElement('div');
  const code = document.createElement('pre');
  code.className = 'code';
  code.textContent = MIXER_SNIPPET;
  panel.append(controls, titles, canvas, chart, code);
  container.append(panel);

  // rendering: one renderer, three viewports sharing a camera framed on the clip's first pose
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio ?? 1));
  renderer.setScissorTest(true);
  const camera = new PerspectiveCamera(35, 1, 1, 5000);
  // start in the moving part (the capture's first frame is a T-pose)
  actions.none.time = actions.crossfade[0].time = actions.inertialized.time = MOVING[0];
  for (const rig of Object.values(rigs)) {
    rig.mixer.update(0);
    rig.angularSpeed(0); // start the speed measure from the first pose
  }
  // built on the posed skeleton: it takes the objects' values as what is on screen
  let im = new InertializedMixer(solver, rigs.inertialized.mixer, { halflife });
  // frame the skeleton over the moving part of the clip
  const box = new Box3();
  for (let t = MOVING[0]; t <= MOVING[1]; t += 0.25) {
    actions.none.time = t;
    rigs.none.mixer.update(0);
    rigs.none.root.updateMatrixWorld(true);
    for (const b of rigs.none.bones) box.expandByPoint(b.getWorldPosition(new Vector3()));
  }
  actions.none.time = MOVING[0];
  rigs.none.mixer.update(0);
  rigs.none.angularSpeed(0);
  const center = box.getCenter(new Vector3()),
    size = box.getSize(new Vector3());
  const distance = (0.65 * Math.max(size.x, size.y, size.z)) / Math.tan((camera.fov / 2) * (Math.PI / 180));
  camera.position.set(center.x, center.y + 0.2 * size.y, center.z + distance);
  camera.lookAt(center);

  // the plot: the hip's angular speed of each
  const times: number[] = [];
  const speeds: Record<Kind, number[]> = { none: [], crossfade: [], inertialized: [] };
  const plot = new uPlot(
    {
      width: Math.max(240, chart.clientWidth || 600), // the chart's own box: it must fit a 390 px page
      height: 180,
      scales: { x: { time: false } },
      title: 'The hip’s angular speed',
      axes: [{ label: 's' }, { label: 'rad/s' }], // a longer label is cut at this height
      series: [
        {},
        ...(Object.keys(COLORS) as Kind[]).map((kind) => ({
          label: TITLES[kind],
          stroke: COLORS[kind],
          width: 2,
          points: { show: false },
        })),
      ],
    },
    [[], [], [], []],
    chart,
  );
  followWidth(plot, chart);

  let jumps = 0;
  const peak: Record<Kind, number> = { none: 0, crossfade: 0, inertialized: 0 };
  function jump(): void {
    jumps++;
    for (const kind of Object.keys(peak) as Kind[]) peak[kind] = 0;
    const t = MOVING[0] + Math.random() * (MOVING[1] - MOVING[0]);
    actions.none.time = t;
    const [from, to] = crossfadeActive === 0 ? actions.crossfade : [actions.crossfade[1], actions.crossfade[0]];
    to.reset().play();
    to.time = t;
    from.crossFadeTo(to, CROSSFADE, false);
    crossfadeActive ^= 1;
    actions.inertialized.time = t;
    im.transition();
  }
  jumpButton.addEventListener('click', jump);
  slider.addEventListener('input', () => {
    halflife = Number(slider.value);
    sliderValue.textContent = `${halflife.toFixed(2)} s`;
    im.dispose(); // the halflife is fixed per InertializedMixer: a new one (the offset in flight is dropped)
    im = new InertializedMixer(solver, rigs.inertialized.mixer, { halflife });
  });

  let clock = 0;
  let last = performance.now();
  let frame = 0;
  const loop = (now: number) => {
    frame = requestAnimationFrame(loop);
    const dt = Math.min(0.05, Math.max(0, (now - last) / 1000));
    last = now;
    clock += dt;
    rigs.none.mixer.update(dt);
    rigs.crossfade.mixer.update(dt);
    im.update(dt);
    if (actions.none.time > LATEST) jump();
    // plot
    times.push(clock);
    for (const kind of Object.keys(rigs) as Kind[]) {
      const speed = rigs[kind].angularSpeed(dt);
      speeds[kind].push(speed);
      peak[kind] = Math.max(peak[kind], speed);
    }
    while (times.length > 0 && times[0]! < clock - HISTORY) {
      times.shift();
      for (const kind of Object.keys(speeds) as Kind[]) speeds[kind].shift();
    }
    plot.setData([times, speeds.none, speeds.crossfade, speeds.inertialized]);
    // draw
    const width = canvas.clientWidth,
      height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * renderer.getPixelRatio())) renderer.setSize(width, height, false);
    camera.aspect = width / 3 / height;
    camera.updateProjectionMatrix();
    (['none', 'crossfade', 'inertialized'] as Kind[]).forEach((kind, k) => {
      rigs[kind].draw();
      const x = Math.round((k * width) / 3);
      renderer.setViewport(x, 0, width / 3, height);
      renderer.setScissor(x, 0, width / 3, height);
      renderer.setClearColor(0xf8fafc);
      renderer.render(rigs[kind].scene, camera);
    });
  };
  frame = requestAnimationFrame(loop);

  return {
    jumps: () => jumps,
    peakSinceJump: (kind) => peak[kind],
    dispose() {
      cancelAnimationFrame(frame);
      jumpButton.removeEventListener('click', jump);
      im.dispose();
      for (const rig of Object.values(rigs)) rig.dispose();
      plot.destroy();
      renderer.dispose();
      panel.remove();
    },
  };
}
