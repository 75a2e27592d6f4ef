// A spring-following camera: drag on the ground to move the goal; the marker, the camera and
// the point it looks at follow with spring3 (exact, frame-rate independent, no solver).
import {
  AmbientLight,
  BoxGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  Plane,
  Raycaster,
  Scene,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { spring3 } from 'spring-solver/three';
import { fitRendererToCanvas } from './resize.js';

const CAMERA_OFFSET = new Vector3(0, 6, 10);

export class CameraSection {
  readonly goal = new Vector3();
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 2, 0.1, 200);
  readonly marker = new Mesh(new SphereGeometry(0.35, 24, 16), new MeshLambertMaterial({ color: 0xdc2626 }));
  private readonly lookAt = new Vector3();
  private readonly cameraGoal = new Vector3();

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    this.scene.background = new Color(0xf1f5f9);
    this.scene.add(new AmbientLight(0xffffff, 1.2), new GridHelper(80, 80, 0x94a3b8, 0xcbd5e1));
    const sun = new DirectionalLight(0xffffff, 2);
    sun.position.set(5, 12, 4);
    this.scene.add(sun);
    // A little town of boxes to move around in.
    for (let i = 0; i < 60; i++) {
      const h = 0.5 + ((i * 37) % 11) / 3;
      const box = new Mesh(new BoxGeometry(1.2, h, 1.2), new MeshLambertMaterial({ color: new Color().setHSL((i * 0.13) % 1, 0.45, 0.6) }));
      box.position.set(((i * 7919) % 31) - 15, h / 2, ((i * 104729) % 29) - 14);
      this.scene.add(box);
    }
    this.marker.position.y = 0.35;
    this.scene.add(this.marker);
    this.camera.position.copy(CAMERA_OFFSET);
    this.listen();
  }

  /** One frame: three exact springs, then render. */
  frame(dt: number): void {
    spring3(this.marker.position, this.goal, 0.08, dt, 12); // the marker runs at most 12 m/s
    this.cameraGoal.copy(this.marker.position).add(CAMERA_OFFSET);
    spring3(this.camera.position, this.cameraGoal, 0.35, dt); // the camera trails behind
    spring3(this.lookAt, this.marker.position, 0.15, dt); // and turns toward the marker
    this.camera.lookAt(this.lookAt);
    fitRendererToCanvas(this.renderer, this.camera);
    this.renderer.render(this.scene, this.camera);
  }

  /** Pointer down or drag: the goal is the point of the ground under the pointer. */
  private listen(): void {
    const ray = new Raycaster();
    const ground = new Plane(new Vector3(0, 1, 0), -0.35);
    const pointer = new Vector2();
    const move = (event: PointerEvent) => {
      const box = this.canvas.getBoundingClientRect();
      pointer.set(((event.clientX - box.left) / box.width) * 2 - 1, -((event.clientY - box.top) / box.height) * 2 + 1);
      ray.setFromCamera(pointer, this.camera);
      const hit = ray.ray.intersectPlane(ground, new Vector3());
      if (hit) this.goal.set(Math.max(-30, Math.min(30, hit.x)), 0.35, Math.max(-30, Math.min(30, hit.z)));
    };
    this.canvas.addEventListener('pointerdown', (event) => {
      this.canvas.setPointerCapture(event.pointerId);
      move(event);
    });
    this.canvas.addEventListener('pointermove', (event) => {
      if (this.canvas.hasPointerCapture(event.pointerId)) move(event);
    });
  }
}
