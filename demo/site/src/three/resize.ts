// Keeps a renderer's drawing buffer and its camera's aspect in step with the canvas's CSS size.
import type { PerspectiveCamera, WebGLRenderer } from 'three';

/** Resizes the drawing buffer (and the camera's aspect) when the canvas's displayed size changed. */
export function fitRendererToCanvas(renderer: WebGLRenderer, camera: PerspectiveCamera): void {
  const canvas = renderer.domElement;
  const width = canvas.clientWidth,
    height = canvas.clientHeight;
  const ratio = renderer.getPixelRatio();
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    renderer.setSize(width, height, false);
    camera.aspect = width / Math.max(1, height);
    camera.updateProjectionMatrix();
  }
}
