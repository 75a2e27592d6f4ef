/**
 * The arrays the float64 reference works on: the solver's Float32Arrays, or Float64Arrays.
 * @group Core springs
 */
export type FloatArray = Float32Array | Float64Array;
