// The compiled server the process tests start: the same build `npm start` runs (scripts/build.mjs),
// made once per test run by test/global-setup.ts. Builds are immutable directories named by the
// hash of their sources, so a test run never changes the files of a server started by hand.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `node <SERVER_SCRIPT>`: the server process itself (no npm or tsx wrapper), so signals reach it. */
export const SERVER_SCRIPT = path.join(inject('serverBuild'), 'server.js');

/**
 * Node's arguments for a test's server process, before SERVER_SCRIPT. A test's server lives seconds,
 * so PGlite's WebAssembly runs on V8's baseline compiler only, as the CLI's one-shot commands do
 * (src/cli/baseline-compiler.ts): its optimizing compiler, in background threads, compiled PostgreSQL
 * again for code the test ends before it pays off. The answers are the same; only the time moves
 * (docs/architecture.md, "How the suite stays fast"). A production server keeps both compilers.
 */
export const SERVER_NODE_ARGS = ['--liftoff-only'];
