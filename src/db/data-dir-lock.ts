// PGlite has no cross-process lock: two servers on one DATA_DIR would corrupt it. We take a lock
// file holding our pid; a lock left by a dead process is taken over.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockPath: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  // The lock file appears with our pid already in it (written aside, then hard-linked into place,
  // which fails if it exists): a concurrent starter never sees an empty lock and takes it for stale.
  const staging = `${lockPath}.${process.pid}`;
  fs.writeFileSync(staging, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(staging, lockPath);
        return () => {
          if (readHolder(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readHolder(lockPath);
        if (holder && holder !== process.pid && alive(holder)) {
          throw new DataDirLockedError(
            `DATA_DIR ${dataDir} is in use by process ${holder}. The embedded database allows one server at a time; stop it, use another DATA_DIR, or set DATABASE_URL.`,
          );
        }
        // Left by a dead process (or unreadable): remove it, unless someone replaced it meanwhile.
        if (readHolder(lockPath) === holder) fs.rmSync(lockPath, { force: true });
      }
    }
  } finally {
    fs.rmSync(staging, { force: true });
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}.`);
}
