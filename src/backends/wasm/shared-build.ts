/**
 * The threaded SIMD build from the SIMD build's bytes: the two differ only in their memory import,
 * which the threaded build declares shared with a maximum (asc --sharedMemory --maximumMemory 65536
 * --enable threads). Rewriting that import's limits gives asc's threaded build byte for byte
 * (test/wasm/threads.node.test.ts), so the threaded build needs no file, asset or embedded copy of
 * its own: it comes from whatever the SIMD build comes from (docs/DECISIONS.md, "Threads").
 */

/** The threaded build's maximum: 65,536 pages (4 GiB), every memory a solver can create. */
export const SHARED_MAXIMUM_PAGES = 65536;

/** A LEB128 unsigned number at `at`: its value and the offset after it. */
function readU32(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error('the wasm bytes end inside a number');
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7;
  }
}

function writeU32(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/** The offset after a name (a length and its bytes). */
function skipName(bytes: Uint8Array, at: number): number {
  const [length, start] = readU32(bytes, at);
  return start + length;
}

/** The offset after a limits field (flags, minimum, maximum if flagged). */
function skipLimits(bytes: Uint8Array, at: number): number {
  const flags = bytes[at]!;
  let next = readU32(bytes, at + 1)[1];
  if (flags & 1) next = readU32(bytes, next)[1];
  return next;
}

/**
 * The same module with its imported memory shared, maximum SHARED_MAXIMUM_PAGES. Throws when
 * the bytes are not a module importing one unshared memory.
 */
export function sharedMemoryBuild(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a WebAssembly module');
  }
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at]!;
    const [size, payload] = readU32(bytes, at + 1);
    const end = payload + size;
    if (id === 2) return withSharedMemory(bytes, at, payload, end);
    at = end;
  }
  throw new Error('the module imports no memory');
}

/** Rewrites the import section [section, end) (its payload from `payload`). */
function withSharedMemory(bytes: Uint8Array, section: number, payload: number, end: number): Uint8Array<ArrayBuffer> {
  let [count, at] = readU32(bytes, payload);
  for (; count > 0; count--) {
    at = skipName(bytes, skipName(bytes, at));
    const kind = bytes[at++];
    if (kind === 0) at = readU32(bytes, at)[1];
    else if (kind === 1) at = skipLimits(bytes, at + 1);
    else if (kind === 3) at += 2;
    else if (kind === 4) at = readU32(bytes, at + 1)[1];
    else if (kind === 2) {
      if (bytes[at]! & 2) throw new Error('the module imports a shared memory already');
      const [minimum] = readU32(bytes, at + 1);
      const limitsEnd = skipLimits(bytes, at);
      const limits = [3, ...writeU32(minimum), ...writeU32(SHARED_MAXIMUM_PAGES)];
      const body = [...bytes.subarray(payload, at), ...limits, ...bytes.subarray(limitsEnd, end)];
      const out = new Uint8Array(section + 1 + writeU32(body.length).length + body.length + (bytes.length - end));
      out.set(bytes.subarray(0, section + 1));
      const header = writeU32(body.length);
      out.set(header, section + 1);
      out.set(body, section + 1 + header.length);
      out.set(bytes.subarray(end), section + 1 + header.length + body.length);
      return out;
    } else throw new Error(`unknown import kind ${kind}`);
  }
  throw new Error('the module imports no memory');
}
