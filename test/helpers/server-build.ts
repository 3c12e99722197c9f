// The compiled server the process tests start: the same build `npm start` runs (scripts/build.mjs),
// made once per test run by test/global-setup.ts. Builds are immutable directories named by the
// hash of their sources, so a test run never changes the files of a server started by hand.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `node <SERVER_SCRIPT>`: the server process itself (no npm or tsx wrapper), so signals reach it. */
export const SERVER_SCRIPT = path.join(inject('serverBuild'), 'server.js');
