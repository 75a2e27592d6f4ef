// mulberry32: a small seeded 32-bit PRNG, so tests, the benchmark and the demo see the same
// "random" values on every run. Shared by test/helpers/random.ts, bench/ and demo/.

/**
 * Uniform floats in [0, 1) from a 32-bit seed.
 * @param {number} seed
 * @returns {() => number}
 */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
