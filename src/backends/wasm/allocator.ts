/**
 * First-fit allocator over a fixed byte range of the wasm memory, with coalescing on free.
 * Blocks are 16-byte aligned so SIMD loads never straddle more cache lines than needed.
 */
const ALIGN = 16;

interface Block {
  start: number;
  bytes: number;
}

export class Allocator {
  private free: Block[]; // sorted by start, never adjacent
  private live = new Map<number, { bytes: number; length: number }>();
  /** The starts of the live blocks, sorted (for {@link Allocator.inLiveBlock}). */
  private starts: number[] = [];

  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    this.free = [{ start, bytes: end - start }];
  }

  /** Byte offset of a new block for `length` floats, or −1 when no free block is large enough. */
  allocate(length: number): number {
    const bytes = Math.max(ALIGN, Math.ceil((length * 4) / ALIGN) * ALIGN);
    const index = this.free.findIndex((block) => block.bytes >= bytes);
    if (index < 0) return -1;
    const block = this.free[index];
    const start = block.start;
    if (block.bytes === bytes) this.free.splice(index, 1);
    else this.free[index] = { start: start + bytes, bytes: block.bytes - bytes };
    this.live.set(start, { bytes, length });
    this.starts.splice(this.firstStartAbove(start), 0, start);
    return start;
  }

  /** True when bytes [start, start + bytes) lie inside the floats of one live block. */
  inLiveBlock(start: number, bytes: number): boolean {
    const index = this.firstStartAbove(start) - 1;
    if (index < 0) return false;
    const blockStart = this.starts[index];
    return start + bytes <= blockStart + 4 * this.live.get(blockStart)!.length;
  }

  /** Index of the first live start above `start` (binary search). */
  private firstStartAbove(start: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when (start, length) is exactly a block handed out by allocate and not yet released. */
  owns(start: number, length: number): boolean {
    return this.live.get(start)?.length === length;
  }

  release(start: number): void {
    const block = this.live.get(start);
    if (!block) throw new Error(`internal: no live block at ${start}`);
    this.live.delete(start);
    this.starts.splice(this.firstStartAbove(start) - 1, 1);
    let index = this.free.findIndex((b) => b.start > start);
    if (index < 0) index = this.free.length;
    this.free.splice(index, 0, { start, bytes: block.bytes });
    // merge with the next block, then with the previous one
    const next = this.free[index + 1];
    if (next && start + block.bytes === next.start) {
      this.free[index].bytes += next.bytes;
      this.free.splice(index + 1, 1);
    }
    const previous = this.free[index - 1];
    if (previous && previous.start + previous.bytes === start) {
      previous.bytes += this.free[index].bytes;
      this.free.splice(index, 1);
    }
  }

  largestFreeBytes(): number {
    return this.free.reduce((largest, block) => Math.max(largest, block.bytes), 0);
  }

  freeBytes(): number {
    return this.free.reduce((sum, block) => sum + block.bytes, 0);
  }
}
