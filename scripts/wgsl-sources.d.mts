export const generatedPath: string;
export function generateWgslSources(): Promise<string>;
