#!/usr/bin/env node
// The `payroll` command (npx payroll --help). The sources are TypeScript, run through tsx's loader
// in this same process so that signals (SIGTERM on `payroll serve`) reach the server directly.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
