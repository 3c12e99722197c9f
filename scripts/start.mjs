// `npm start`: builds the current sources if no build of them exists yet (scripts/build.mjs), then
// runs that build's server in this very process, so that signals reach the server and only the
// compiled JavaScript (not esbuild, not a TypeScript loader) stays in memory.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDist } from './build.mjs';

const build = await buildDist();
const { main } = await import(pathToFileURL(path.join(build, 'server.js')).href);
main();
