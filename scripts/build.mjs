// Compiles src/ (TypeScript) to JavaScript (one file per module) for `npm start`, the bench and the
// process tests. Running the sources through tsx's loader works too, but the loader keeps the
// TypeScript toolchain in memory: an idle server takes ~245 MB that way, ~155 MB compiled.
// esbuild only strips types (about half a second); `npm run typecheck` is what checks them.
//
// Every build lives in dist/builds/<hash of its inputs>/ and is never changed once there: it is
// written to a temporary directory and renamed into place (atomic), and only when no build of the
// same inputs exists. Servers started together from one checkout therefore never see a file of the
// build they are loading removed or rewritten by another one's start (they used to share one dist/
// that every start deleted and rebuilt).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
export const BUILDS_DIR = path.join(root, 'dist', 'builds');
/** A build nobody started for this long is removed when a new build is made (a running server needs none of its files after start-up). */
const PRUNE_AFTER_MS = 14 * 24 * 3600 * 1000;
/** A temporary directory this old belongs to a build that was killed. */
const STALE_TEMP_MS = 3600 * 1000;

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

/** The files of src/ that go into a build: tests stay out. */
function sourceFiles() {
  return files(src)
    .filter((file) => !file.endsWith('.test.ts'))
    .sort();
}

/** Hash of everything that decides a build's output: the sources, this script and the esbuild version. */
export function sourceHash() {
  const hash = crypto.createHash('sha256');
  // Read from its package.json: importing esbuild here would keep it in every server's memory.
  const esbuildMain = createRequire(import.meta.url).resolve('esbuild');
  const esbuildPackage = JSON.parse(fs.readFileSync(path.join(path.dirname(esbuildMain), '..', 'package.json'), 'utf8'));
  hash.update(`esbuild ${esbuildPackage.version}\0`);
  hash.update(fs.readFileSync(fileURLToPath(import.meta.url)));
  for (const file of sourceFiles()) {
    hash.update(`\0${path.relative(src, file)}\0`);
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 20);
}

async function compile(outdir) {
  // Loaded only when a build is needed: a start that finds its build keeps esbuild out of memory.
  const esbuild = await import('esbuild');
  const all = sourceFiles();
  await esbuild.build({
    entryPoints: all.filter((file) => file.endsWith('.ts')),
    outdir,
    outbase: src,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  await esbuild.stop();
  // Everything else under src/ (the SQL migrations) is read at run time next to the code.
  for (const file of all.filter((f) => !f.endsWith('.ts'))) {
    const target = path.join(outdir, path.relative(src, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
}

/** Removes builds not started for PRUNE_AFTER_MS and temporary directories of killed builds. */
function prune(buildsDir, keep) {
  const now = Date.now();
  for (const entry of fs.readdirSync(buildsDir)) {
    if (entry === keep) continue;
    const full = path.join(buildsDir, entry);
    const age = now - fs.statSync(full, { throwIfNoEntry: false })?.mtimeMs;
    if (age > (entry.startsWith('.tmp-') ? STALE_TEMP_MS : PRUNE_AFTER_MS)) fs.rmSync(full, { recursive: true, force: true });
  }
}

/**
 * Returns the directory of the build of the current sources under `buildsDir` (inside the
 * repository, so that node_modules resolves), compiling it first if it does not exist yet.
 * Safe to call from several processes at once: each may compile, the first rename wins, and no
 * existing build is ever modified.
 */
export async function buildDist(buildsDir = BUILDS_DIR) {
  const hash = sourceHash();
  const target = path.join(path.resolve(root, buildsDir), hash);
  // The directory's time says when it was last started (see prune); touching it also tells
  // whether it exists.
  const touch = () => {
    const now = new Date();
    fs.utimesSync(target, now, now);
  };
  try {
    touch();
    return target;
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.tmp-${hash}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    await compile(temp);
    fs.renameSync(temp, target);
  } catch (error) {
    // Another process renamed its build of the same sources into place first: use that one.
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || !fs.existsSync(target)) throw error;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  touch();
  prune(path.dirname(target), hash);
  return target;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) console.log(await buildDist());
