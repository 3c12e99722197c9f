// PGlite has no cross-process lock: two servers on one DATA_DIR would corrupt it. We take a lock
// file naming our process; a lock left by a process that is gone is taken over. "Gone" includes a
// zombie (killed with -9, not yet reaped by its parent) and a pid the system has since given to
// another program: the lock records the holder's start time (Linux /proc) and a holder counts only
// while a process with that pid and that start time runs. Otherwise a restart right after
// `kill -9` could be refused for as long as the zombie or the unrelated process lives.
import fs from 'node:fs';
import path from 'node:path';

// Narrowing as in platform/guards.ts, kept here: db/ sits below the platform and imports nothing of it.
const errnoCode = (error: unknown) => (error instanceof Error && 'code' in error ? error.code : undefined);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export class DataDirLockedError extends Error {}

interface Holder {
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat); absent off Linux and in old lock files. */
  startTime?: string;
}

export interface ProcessStat {
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  startTime: string;
}

const HAS_PROC = fs.existsSync('/proc/self/stat');

/** State and start time of a process from /proc, or undefined when no such process exists. */
export function processStat(pid: number): ProcessStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], startTime: fields[19] };
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/** Whether the process that wrote the lock still runs (not a zombie, not a reused pid). */
function holderRuns(holder: Holder): boolean {
  if (!HAS_PROC) return signalable(holder.pid);
  const stat = processStat(holder.pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return holder.startTime === undefined || holder.startTime === stat.startTime;
}

function readHolder(lockPath: string): Holder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8').trim();
  } catch {
    return undefined;
  }
  // Lock files of earlier versions hold the bare pid.
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : undefined };
  } catch {
    return undefined;
  }
}

const sameHolder = (a: Holder | undefined, b: Holder | undefined) => a?.pid === b?.pid && a?.startTime === b?.startTime;

export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  const self: Holder = { pid: process.pid, startTime: processStat(process.pid)?.startTime };
  // The lock file appears with our pid already in it (written aside, then hard-linked into place,
  // which fails if it exists): a concurrent starter never sees an empty lock and takes it for stale.
  const staging = `${lockPath}.${process.pid}`;
  fs.writeFileSync(staging, JSON.stringify(self));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(staging, lockPath);
        return () => {
          if (sameHolder(readHolder(lockPath), self)) fs.rmSync(lockPath, { force: true });
        };
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
        const holder = readHolder(lockPath);
        if (holder && holder.pid !== process.pid && holderRuns(holder)) {
          throw new DataDirLockedError(
            `DATA_DIR ${dataDir} is in use by process ${holder.pid}. The embedded database allows one server at a time; stop it, use another DATA_DIR, or set DATABASE_URL.`,
          );
        }
        // Left by a process that is gone (or unreadable): remove it, unless someone replaced it meanwhile.
        if (sameHolder(readHolder(lockPath), holder)) fs.rmSync(lockPath, { force: true });
      }
    }
  } finally {
    fs.rmSync(staging, { force: true });
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}.`);
}
