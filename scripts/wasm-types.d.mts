/** Absolute path of src/core/kernels.generated.ts. */
export declare const generatedPath: string;
/** The text of kernels.generated.ts for the current assembly/ sources, and asc's diagnostics. */
export declare function generateKernelTypes(): Promise<{ text: string; diagnostics: string }>;
/** asc's diagnostics (warnings included) for one target of asconfig.json, compiled without output. */
export declare function ascDiagnostics(target: 'simd' | 'scalar'): Promise<string>;
