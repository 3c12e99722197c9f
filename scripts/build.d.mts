/** See build.mjs: where builds go by default (dist/builds). */
export const BUILDS_DIR: string;
/** See build.mjs: hash of the inputs of a build (its directory name). */
export function sourceHash(): string;
/** See build.mjs: the directory of the build of the current sources under `buildsDir`, compiled first if missing. */
export function buildDist(buildsDir?: string): Promise<string>;
