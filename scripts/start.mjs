// `npm start`: builds the current sources if no build of them exists yet (scripts/build.mjs), then
// runs that build's server in this very process, so that signals reach the server and only the
// compiled JavaScript (not esbuild, not a TypeScript loader) stays in memory.
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDist } from './build.mjs';

const build = await buildDist();
// Node 22.1 and later keep V8's compiled code of the modules loaded from here on in their compile
// cache (os.tmpdir()/node-compile-cache unless NODE_COMPILE_CACHE names another), so a restart of
// the same build skips compiling them: ready in 1.81 s instead of 2.07 s on Node 26 (docs/operations.md).
// Node 20 has no such cache and starts as before.
module.enableCompileCache?.();
const { main } = await import(pathToFileURL(path.join(build, 'server.js')).href);
main();
