// A one-shot command on the embedded database spends most of its CPU compiling PGlite's WebAssembly:
// V8 compiles it with its baseline compiler (Liftoff) and then again, in background threads, with
// its optimizing one for the functions that run often, which a command that ends in seconds never
// gains from (docs/operations.md, "Operator tasks"). Measured on the compiled build (29 November,
// two runs each, alternated): `company create` 3.5-4.0 -> 2.0-2.2 s of CPU (2.3-2.6 -> 1.6-1.7 s of
// wall), `migrate` of a new DATA_DIR 12.0-13.3 -> 9.1-9.4 s (8.3-9.2 -> 7.5-7.8 s).
import v8 from 'node:v8';

/**
 * Baseline compiler only, for the rest of this process. The flag is the process's: call it only
 * from a process's entry (the CLI's main(), which bin/payroll.js runs), never where a server will
 * run. `serve` keeps both compilers: a server runs long enough for the optimized code to pay for
 * itself.
 */
export function useBaselineCompilerOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}
