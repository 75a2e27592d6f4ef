/**
 * Documented bounds that keep every call finite in time and memory (docs/DECISIONS.md,
 * "Accepted ranges"). A call that would exceed one throws a RangeError naming the argument.
 */

/** The longest array alloc() hands out (and the most floats an object allocates at once): 2^29 floats, 2 GiB, the largest wasm memory. */
export const MAX_ALLOC_LENGTH = 2 ** 29;

/**
 * The most substeps one call may take: Solver.substep's calls of `step`, FixedStepper.advance's
 * fixed steps (with maxUpdates Infinity), and SecondOrderDynamics 'euler-substep' substeps per
 * channel per update (each a few nanoseconds in wasm).
 */
export const MAX_SUBSTEPS = 1_000_000;
