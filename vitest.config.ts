import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/sequencer.js';

/**
 * Test files that must get a fresh process: signin.security replaces a module with vi.mock, which
 * only takes effect where that module has not been loaded yet; proxy-and-timeouts checks what a
 * silent connection gets from Node on its own, which an HTTP parser left in Node's free list by an
 * earlier file's connections changes (Node's sweep then answers 408 before our close).
 */
const ISOLATED = ['src/web/signin.security.test.ts', 'test/platform/proxy-and-timeouts.test.ts'];
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts', 'clients/**/*.test.ts', 'examples/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Three workers on CI's two cores: files wait on their servers, browsers, timers and PostgreSQL,
    // and a third worker runs while the others wait. Measured back to back (docs/architecture.md,
    // "Three test workers"): the embedded pass 246-247 → 236-246 s (idle CPU 16% → 7%), PostgreSQL +
    // Redis 172 → 152 s. Set here, not with --maxWorkers: the projects below take the config's value.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's
    // content, the config and the Node version): the second project of a run, and a later run on the
    // same Node, read them instead of transforming the sources again. CI's two passes run on two Node
    // versions, so each gains within itself only; `npm ci` starts a clean clone without the cache.
    // Measured in docs/architecture.md, "Tests".
    experimental: { fsModuleCache: true },
    projects: [
      // Every other file shares its worker's modules with the files that ran there before it: no
      // module of ours keeps state between files (each file builds its own app and database; the
      // one idle database of test/helpers/pglite-reuse.ts is emptied before it is lent again), and
      // loading the app's modules again for each file cost ~1.7 s of CPU per file.
      { extends: true, test: { name: 'shared', include: ALL, exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
