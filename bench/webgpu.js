// The webgpu suite: spring-solver/webgpu in headless Chromium (WebGPU through whatever adapter
// Chromium finds: on a machine without a GPU, SwiftShader, software, labelled so in every row).
// Per call: GPU time from timestamp queries where the adapter has them, and wall time around
// onSubmittedWorkDone (20 calls per sample, median of 7); beside each, the bytes the CPU path
// (InstancedSprings, spring-solver/three) uploads per frame for the same instances: 64 per
// instance (its 16-float matrix), against the GPU path's one uniform block per call.
// Then spring-solver/three-webgpu's GpuInstancedSprings.update on a WebGPURenderer's instance
// buffer (positions; positions, rotations and scales): per frame, the GPU time summed over its
// compute passes, the wall time, and the bytes queue.writeBuffer carries during update(), counted
// (0), against InstancedSprings' 64 bytes an instance.
// It also measures what the host's float64 coefficients buy: the same uniform parameters run as
// uniform (coefficients from the host) and as per-element arrays (coefficients in WGSL float32),
// worst error against the float64 reference per unit of (1 + |value|).
// `npm run bench` runs it after bench/run.js; where Chromium or WebGPU is absent it says why and
// exits 0 (the suite is skipped, the rest of the benchmark stands).
//
//   npm run build && node bench/webgpu.js [--n 100000,1000000] [--instances 100000,1000000]
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';

const root = fileURLToPath(new URL('..', import.meta.url));
// Chromium as the webgpu test project launches it (test/helpers/chromium-launch.ts: CHROMIUM_ARGS + WEBGPU_ARGS)
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-webgpu',
];
const argv = process.argv.slice(2);
const nOption = argv.indexOf('--n');
const SIZES = nOption >= 0 ? argv[nOption + 1].split(',').map(Number) : [100_000, 1_000_000];
const instancesOption = argv.indexOf('--instances');
const INSTANCES = instancesOption >= 0 ? argv[instancesOption + 1].split(',').map(Number) : [100_000, 1_000_000];

/**
 * The suite cannot run here: say why, and leave `npm run bench` passing.
 * @param {string} reason
 * @returns {never}
 */
function skip(reason) {
  console.log(`webgpu suite skipped: ${reason}`);
  process.exit(0);
}
if (!existsSync(CHROMIUM_PATH)) skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH to a Chromium with WebGPU)`);
/** three as the page imports it: 'three' and 'three/webgpu' share build/three.core.js. */
const IMPORT_MAP = JSON.stringify({
  imports: { three: '/node_modules/three/build/three.module.js', 'three/webgpu': '/node_modules/three/build/three.webgpu.js' },
});

const server = createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
  if (path === '/') {
    response.setHeader('Content-Type', 'text/html');
    response.end(`<!doctype html><title>webgpu bench</title><script type="importmap">${IMPORT_MAP}</script>`);
    return;
  }
  if (!path.startsWith('/dist/') && !path.startsWith('/node_modules/three/build/')) {
    response.statusCode = 404;
    response.end();
    return;
  }
  try {
    const body = await readFile(join(root, path));
    response.setHeader('Content-Type', extname(path) === '.js' ? 'text/javascript' : 'application/octet-stream');
    response.end(body);
  } catch {
    response.statusCode = 404;
    response.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const origin = `http://localhost:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/`;

/** @type {import('playwright').Browser} */
let browser;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
} catch (error) {
  server.close();
  skip(`Chromium at ${CHROMIUM_PATH} did not start: ${String(/** @type {Error} */ (error).message).split('\n')[0]}`);
}
try {
  const page = await browser.newPage();
  await page.goto(origin);
  const result = await page.evaluate(
    async ([sizes, instanceCounts]) => {
      // served by the server above (a variable, so that the type check does not resolve them)
      const [webgpuUrl, referenceUrl, threeWebgpuUrl, threeUrl] = [
        '/dist/webgpu/index.js',
        '/dist/reference/index.js',
        '/dist/three-webgpu/index.js',
        'three/webgpu',
      ];
      const { createGpuSolver } = await import(webgpuUrl);
      const reference = await import(referenceUrl);
      if (!(/** @type {any} */ (navigator).gpu)) return { skip: 'this Chromium exposes no navigator.gpu (WebGPU disabled)' };
      const adapter = await /** @type {any} */ (navigator).gpu.requestAdapter();
      if (!adapter) return { skip: 'navigator.gpu.requestAdapter() found no adapter (no GPU, and no SwiftShader fallback)' };
      const info = adapter.info;
      const name = [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ') || 'unknown adapter';
      const software = /swiftshader|llvmpipe|software|warp/i.test(name) || info.isFallbackAdapter === true;
      const timestamps = adapter.features.has('timestamp-query');
      const device = await adapter.requestDevice({ requiredFeatures: timestamps ? ['timestamp-query'] : [] });
      const gpu = await createGpuSolver({ device });
      const rows = [];
      const median = (a) => a.slice().sort((p, q) => p - q)[a.length >> 1];

      // GPU time of one call from a timestamp query pair around its compute pass
      let querySet = null;
      let resolve = null;
      let readBack = null;
      if (timestamps) {
        querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
        resolve = device.createBuffer({ size: 16, usage: 0x0200 | 0x0004 /* QUERY_RESOLVE | COPY_SRC */ });
        readBack = device.createBuffer({ size: 16, usage: 0x0008 | 0x0001 /* COPY_DST | MAP_READ */ });
      }
      async function gpuTime(run) {
        const encoder = device.createCommandEncoder();
        gpu.passDescriptor = { timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } };
        gpu.record(encoder);
        run();
        gpu.record(null);
        gpu.passDescriptor = undefined;
        encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, readBack, 0, 16);
        device.queue.submit([encoder.finish()]);
        await readBack.mapAsync(1 /* GPUMapMode.READ */);
        const [t0, t1] = new BigUint64Array(readBack.getMappedRange().slice(0));
        readBack.unmap();
        return Number(t1 - t0) / 1e6; // ms
      }
      async function wallTime(run, calls = 20) {
        await device.queue.onSubmittedWorkDone();
        const t0 = performance.now();
        for (let k = 0; k < calls; k++) run();
        await device.queue.onSubmittedWorkDone();
        return (performance.now() - t0) / calls;
      }

      for (const n of sizes) {
        const [x, v, g, q, h, f] = [gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n)];
        gpu.write(
          g,
          Float32Array.from({ length: n }, (_, i) => Math.sin(i)),
        );
        gpu.write(h, new Float32Array(n).fill(0.1));
        gpu.write(f, new Float32Array(n).fill(2));
        /** @type {[string, () => void][]} */
        const cases = [
          ['criticalSpringDamper uniform', () => gpu.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60)],
          ['criticalSpringDamper per-element', () => gpu.criticalSpringDamper(x, v, g, q, h, 1 / 60)],
          ['springDamper uniform', () => gpu.springDamper(x, v, g, q, 2, 0.1, 1 / 60)],
          ['springDamper per-element', () => gpu.springDamper(x, v, g, q, f, h, 1 / 60)],
          ['damper uniform', () => gpu.damper(x, g, 0.1, 1 / 60)],
        ];
        // n / 4 quaternions (and n / 4 angular velocities in v's first 3n / 4 floats)
        const bones = Math.floor(n / 4);
        const [qq, ww, qg, hb] = [
          gpu.wrap(x.buffer, { length: 4 * bones }),
          gpu.wrap(v.buffer, { length: 3 * bones }),
          gpu.wrap(g.buffer, { length: 4 * bones }),
          gpu.wrap(h.buffer, { length: bones }),
        ];
        const unit = new Float32Array(4 * bones);
        for (let i = 0; i < bones; i++) unit.set([0, Math.SQRT1_2, 0, Math.SQRT1_2], 4 * i);
        cases.push(['quatSimpleSpringDamper uniform (n/4 bones)', () => gpu.quatSimpleSpringDamper(qq, ww, qg, 0.1, 1 / 60)]);
        cases.push(['quatSimpleSpringDamper per-bone (n/4 bones)', () => gpu.quatSimpleSpringDamper(qq, ww, qg, hb, 1 / 60)]);
        const setQuats = () => {
          gpu.write(qq, unit);
          gpu.write(
            qg,
            unit.map((c, k) => (k % 4 === 0 ? c : k % 4 === 3 ? 1 : 0)),
          );
        };
        for (const [kernel, run] of cases) {
          if (kernel.startsWith('quat')) setQuats(); // unit quaternions in x and g (the linear rows left them arbitrary)
          await wallTime(run, 3); // pipelines compiled, memory touched
          const wall = [];
          const stamps = [];
          for (let s = 0; s < 7; s++) {
            wall.push(await wallTime(run));
            if (timestamps) stamps.push(await gpuTime(run));
          }
          // the CPU path (InstancedSprings) uploads each instance's 16-float matrix every frame;
          // n elements here are n/3 instances' positions
          rows.push({
            kernel,
            n,
            gpuMs: timestamps ? median(stamps) : null,
            wallMs: median(wall),
            cpuPathBytesPerFrame: Math.round(n / 3) * 64,
          });
        }
        for (const a of [x, v, g, q, h, f]) gpu.free(a);
      }

      // GpuInstancedSprings (spring-solver/three-webgpu) on a WebGPURenderer sharing the device: one
      // frame's update, GPU time summed over its passes (each pass gets its own pair of timestamps)
      const { GpuInstancedSprings, createGpuSolverFor } = await import(threeWebgpuUrl);
      const THREE = await import(threeUrl);
      const renderer = new THREE.WebGPURenderer({ device });
      const instancesGpu = await createGpuSolverFor(renderer);
      const passes = 4; // at most: positions, rotations, scales, the matrices' rotation·scale columns
      const frameQueries = timestamps ? device.createQuerySet({ type: 'timestamp', count: 2 * passes }) : null;
      const frameResolve = timestamps ? device.createBuffer({ size: 16 * passes, usage: 0x0200 | 0x0004 }) : null;
      const frameRead = timestamps ? device.createBuffer({ size: 16 * passes, usage: 0x0008 | 0x0001 }) : null;
      async function frameGpuTime(update) {
        let k = 0;
        // a fresh pair of timestamps for every pass the update begins
        Object.defineProperty(instancesGpu, 'passDescriptor', {
          configurable: true,
          get: () => ({ timestampWrites: { querySet: frameQueries, beginningOfPassWriteIndex: 2 * k, endOfPassWriteIndex: 2 * k++ + 1 } }),
        });
        const encoder = device.createCommandEncoder();
        instancesGpu.record(encoder);
        update();
        instancesGpu.record(null);
        Object.defineProperty(instancesGpu, 'passDescriptor', { configurable: true, writable: true, value: undefined });
        encoder.resolveQuerySet(frameQueries, 0, 2 * k, frameResolve, 0);
        encoder.copyBufferToBuffer(frameResolve, 0, frameRead, 0, 16 * k);
        device.queue.submit([encoder.finish()]);
        await frameRead.mapAsync(1);
        const stamps = new BigUint64Array(frameRead.getMappedRange().slice(0));
        frameRead.unmap();
        let ns = 0n;
        for (let p = 0; p < k; p++) ns += stamps[2 * p + 1] - stamps[2 * p];
        return Number(ns) / 1e6;
      }
      const instanceRows = [];
      const queue = device.queue;
      const writeBuffer = queue.writeBuffer;
      for (const count of instanceCounts) {
        for (const composed of [false, true]) {
          const mesh = new THREE.InstancedMesh(new THREE.BoxGeometry(), new THREE.MeshBasicNodeMaterial(), count);
          const springs = new GpuInstancedSprings(instancesGpu, renderer, mesh, { halflife: 0.2, rotation: composed, scale: composed });
          const goals = Float32Array.from({ length: 3 * count }, (_, i) => Math.sin(i));
          springs.setGoals({ positions: goals });
          let calls = 0;
          const update = () => {
            calls++;
            springs.update(1 / 60);
          };
          // the bytes queue.writeBuffer carries while update() runs
          let uploaded = 0;
          queue.writeBuffer = (buffer, offset, data, ...rest) => {
            uploaded += data.byteLength;
            return writeBuffer.call(queue, buffer, offset, data, ...rest);
          };
          const wall = [];
          const stamps = [];
          await wallTime(update, 2);
          for (let s = 0; s < 3; s++) {
            wall.push(await wallTime(update, 3));
            if (timestamps) stamps.push(await frameGpuTime(update));
          }
          queue.writeBuffer = writeBuffer;
          instanceRows.push({
            kernel: `GpuInstancedSprings.update (${composed ? 'positions, rotations, scales' : 'positions'})`,
            n: count,
            gpuMs: timestamps ? median(stamps) : null,
            wallMs: median(wall),
            cpuPathBytesPerFrame: 64 * count,
            gpuPathBytesPerFrame: uploaded / calls,
            uniformBytesPerFrame: (composed ? 4 : 1) * 176,
          });
          springs.dispose();
          mesh.instanceMatrix.dispose(); // three frees its GPUBuffer
        }
      }
      instancesGpu.dispose();

      // What the host's float64 coefficients buy: uniform vs the same values per element.
      const accuracy = [];
      const n = 65_536;
      const state = (seed) => Float32Array.from({ length: n }, (_, i) => 10 * Math.sin(seed * 12.9898 + i * 78.233));
      /** @type {[string, number, number][]} */
      const accuracyCases = [
        ['critical h 0.1', 0.1, 0],
        ['critical h 0.005', 0.005, 0],
        ['springDamper 2 Hz h 0.3', 2, 0.3],
        ['springDamper 9 Hz h 2', 9, 2],
      ];
      for (const [label, p0, p1] of accuracyCases) {
        for (const dt of [1 / 60, 0.5]) {
          const critical = label.startsWith('critical');
          const [x0, v0, g0, q0] = [state(1), state(2), state(3), state(4)];
          const xr = x0.slice();
          const vr = v0.slice();
          if (critical) reference.criticalSpringDamper(xr, vr, g0, q0, p0, dt);
          else reference.springDamper(xr, vr, g0, q0, p0, p1, dt);
          const worst = {};
          for (const mode of ['uniform', 'per-element']) {
            const arrays = [x0, v0, g0, q0].map((a) => {
              const b = gpu.alloc(n);
              gpu.write(b, a);
              return b;
            });
            const params = [p0, p1].map((p) => {
              if (mode === 'uniform') return p;
              const b = gpu.alloc(n);
              gpu.write(b, new Float32Array(n).fill(p));
              return b;
            });
            if (critical) gpu.criticalSpringDamper(...arrays, params[0], dt);
            else gpu.springDamper(...arrays, params[0], params[1], dt);
            const [xg, vg] = [await gpu.read(arrays[0]), await gpu.read(arrays[1])];
            let e = 0;
            for (let i = 0; i < n; i++)
              e = Math.max(e, Math.abs(xg[i] - xr[i]) / (1 + Math.abs(xr[i])), Math.abs(vg[i] - vr[i]) / (1 + Math.abs(vr[i])));
            worst[mode] = e;
          }
          accuracy.push({ case: label, dt, uniform: worst.uniform, perElement: worst['per-element'] });
        }
      }
      gpu.dispose();
      return { adapter: name, software, timestamps, rows, instanceRows, accuracy };
    },
    [SIZES, INSTANCES],
  );
  if (result.skip || !result.rows || !result.instanceRows || !result.accuracy) {
    console.log(`webgpu suite skipped: ${result.skip}`);
  } else {
    const label = `${result.adapter}${result.software ? ' (software: not a GPU timing)' : ''}`;
    console.log(`adapter: ${label}; timestamp queries: ${result.timestamps ? 'yes' : 'no'}`);
    console.log(
      'kernel                                      |         N | GPU ms/call | wall ms/call | CPU path upload/frame | GPU path upload/frame | adapter',
    );
    for (const r of result.rows) {
      console.log(
        `${r.kernel.padEnd(43)} | ${String(r.n).padStart(9)} | ${r.gpuMs === null ? '          —' : r.gpuMs.toFixed(3).padStart(11)} | ${r.wallMs.toFixed(3).padStart(12)} | ${`${(r.cpuPathBytesPerFrame / 1e6).toFixed(2)} MB`.padStart(21)} | ${'176 B (uniforms)'.padStart(21)} | ${label}`,
      );
    }
    console.log('\nGpuInstancedSprings.update, one frame (GPU ms: summed over its compute passes):');
    console.log(
      'update                                                    | instances | GPU ms/frame | wall ms/frame | CPU path upload/frame | GPU path upload/frame | adapter',
    );
    for (const r of result.instanceRows) {
      const gpuBytes = `${r.gpuPathBytesPerFrame} B (+${r.uniformBytesPerFrame} B uniforms)`;
      console.log(
        `${r.kernel.padEnd(57)} | ${String(r.n).padStart(9)} | ${r.gpuMs === null ? '           —' : r.gpuMs.toFixed(3).padStart(12)} | ${r.wallMs.toFixed(3).padStart(13)} | ${`${(r.cpuPathBytesPerFrame / 1e6).toFixed(2)} MB`.padStart(21)} | ${gpuBytes.padStart(21)} | ${label}`,
      );
    }
    console.log('\nworst |gpu − reference| / (1 + |reference|), x and v, 65,536 elements, the same parameters:');
    console.log('case                       |     dt | uniform (host float64) | per-element (WGSL float32)');
    for (const a of result.accuracy) {
      console.log(
        `${a.case.padEnd(26)} | ${a.dt.toFixed(4)} | ${a.uniform.toExponential(2).padStart(22)} | ${a.perElement.toExponential(2).padStart(26)}`,
      );
    }
  }
} finally {
  await browser.close();
  server.close();
}
