/**
 * Getting a GPUDevice, or the reason there is none: no `navigator.gpu` (Node, a browser without
 * WebGPU, a page that is not a secure context), no adapter (WebGPU disabled or blocklisted), or a
 * device request that failed. Each reason is the message of the Error createGpuSolver rejects with.
 */
import type { GpuDevice } from './gpu-types.js';

interface AdapterInfo {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
}

interface GpuAdapterLike {
  readonly info?: AdapterInfo;
  requestDevice(descriptor?: object): Promise<GpuDevice>;
}

interface NavigatorGpu {
  requestAdapter(options?: object): Promise<GpuAdapterLike | null>;
}

/** An adapter's name as its GPUAdapterInfo gives it ("google swiftshader" for Chromium's software adapter). */
export function adapterName(info: AdapterInfo | undefined): string {
  if (!info) return 'unknown adapter';
  const name = [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ');
  return name === '' ? 'unknown adapter' : name;
}

/** A new device of the default adapter, and the adapter's name; rejects with the reason when there is none. */
export async function requestGpuDevice(): Promise<{ device: GpuDevice; adapter: string }> {
  const gpu = (globalThis as { navigator?: { gpu?: NavigatorGpu } }).navigator?.gpu;
  if (gpu === undefined) {
    const where =
      typeof (globalThis as { window?: unknown }).window === 'undefined'
        ? 'this is not a browser page (Node and workers without WebGPU have no navigator.gpu)'
        : (globalThis as { isSecureContext?: boolean }).isSecureContext === false
          ? 'the page is not a secure context (https: or localhost)'
          : 'this browser does not expose WebGPU';
    throw new Error(`createGpuSolver: WebGPU is not available: navigator.gpu is missing; ${where}`);
  }
  const adapter = await gpu.requestAdapter();
  if (adapter === null) {
    throw new Error(
      'createGpuSolver: WebGPU is not available: navigator.gpu.requestAdapter() found no adapter (WebGPU disabled or the GPU blocklisted)',
    );
  }
  try {
    return { device: await adapter.requestDevice(), adapter: adapterName(adapter.info) };
  } catch (error) {
    throw new Error(`createGpuSolver: WebGPU is not available: requestDevice() failed: ${(error as Error).message}`);
  }
}
