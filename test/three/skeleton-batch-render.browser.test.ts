/**
 * SkeletonBatch in a real WebGLRenderer (headless Chromium, WebGL 2 through SwiftShader): the
 * renderer skins the crowd from each skeleton's bone texture, whose data is a view into solver
 * memory while the batch is attached. A frame drawn with the batch equals, pixel for pixel, the
 * frame three draws with its own bone updates. Browser only (*.browser.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { DirectionalLight, PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import { SkeletonBatch } from '../../dist/three/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';

const solvers = useSolvers();
const SIZE = 96;

function frame(renderer: WebGLRenderer, scene: Scene, camera: PerspectiveCamera): Uint8Array {
  renderer.render(scene, camera);
  const gl = renderer.getContext();
  const pixels = new Uint8Array(4 * SIZE * SIZE);
  gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  return pixels;
}

describe.each(BACKENDS)('SkeletonBatch rendered on %s', (backend) => {
  it("draws what three's own bone updates draw, frame after frame", () => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = SIZE;
    const renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    const scene = new Scene();
    scene.add(new DirectionalLight(0xffffff, 2));
    const camera = new PerspectiveCamera(50, 1, 10, 5000);
    camera.position.set(250, 300, 900);
    camera.lookAt(250, 100, 0);
    const { characters } = buildSkinnedCrowd(bvhText, 4, { seed: 5, spacing: 150 });
    for (const c of characters) scene.add(c.group);
    const meshes = characters.map((c) => c.mesh);
    try {
      for (let f = 0; f < 3; f++) {
        for (const c of characters) c.mixer.update(0.2);
        const theirs = frame(renderer, scene, camera);
        const batch = new SkeletonBatch(solvers[backend], meshes);
        batch.update();
        const ours = frame(renderer, scene, camera);
        batch.dispose();
        expect(theirs.some((v, i) => i % 4 === 0 && v > 0)).toBe(true); // the characters are in view
        expect(ours).toEqual(theirs);
      }
      // a pose only the batch computed: three's frame now would differ
      const before = frame(renderer, scene, camera);
      const batch = new SkeletonBatch(solvers[backend], meshes);
      for (const c of characters) c.mixer.update(0.5);
      batch.update();
      expect(frame(renderer, scene, camera)).not.toEqual(before);
      batch.dispose();
    } finally {
      renderer.dispose();
    }
  });
});
