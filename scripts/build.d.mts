/** See build.mjs: compiles src/ to `outdir` (default dist/) and returns its absolute path. */
export function buildDist(outdir?: string): Promise<string>;
