// The compiled server the process tests start: the same build `npm start` runs (scripts/build.mjs),
// made once per test run by test/global-setup.ts into its own directory, so that a test run never
// rebuilds the dist/ of a server started by hand.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEST_DIST = path.join(repoRoot, '.test-data', 'dist');
/** `node <SERVER_SCRIPT>`: the server process itself (no npm or tsx wrapper), so signals reach it. */
export const SERVER_SCRIPT = path.join(TEST_DIST, 'server.js');
