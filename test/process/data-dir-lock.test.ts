// The DATA_DIR lock against the processes a lock file can name after a crash: a live holder keeps
// it; a zombie (a server killed with -9 that its parent has not reaped yet), a pid now used by
// another program (different start time) and a pid that no longer exists do not.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DataDirLockedError, lockDataDir, processStat } from '../../src/db/data-dir-lock.js';
import { killAll, zombie } from './server-process.js';

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await killAll();
});

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

describe.skipIf(!fs.existsSync('/proc/self/stat'))('DATA_DIR lock (Linux /proc)', () => {
  let dataDir: string;
  let lockPath: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-lock-'));
    lockPath = path.join(dataDir, 'server.lock');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const writeLock = (pid: number, startTime?: string) => fs.writeFileSync(lockPath, JSON.stringify({ pid, startTime }));
  const expectTaken = () => {
    const unlock = lockDataDir(dataDir);
    expect(JSON.parse(fs.readFileSync(lockPath, 'utf8'))).toEqual({ pid: process.pid, startTime: processStat(process.pid)?.startTime });
    unlock();
    expect(fs.existsSync(lockPath)).toBe(false);
  };

  test('a lock held by a running process (same pid and start time) is refused, as is an old pid-only lock of one', () => {
    const holder = sleeper();
    const pid = holder.pid as number;
    writeLock(pid, processStat(pid)?.startTime);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dataDir)).toThrow(`DATA_DIR ${dataDir} is in use by process ${pid}.`);
    fs.writeFileSync(lockPath, String(pid));
    expect(() => lockDataDir(dataDir)).toThrow(`is in use by process ${pid}`);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(String(pid));
  });

  test('a lock naming a zombie is taken over', async () => {
    const pid = await zombie();
    writeLock(pid, processStat(pid)?.startTime);
    expectTaken();
    fs.writeFileSync(lockPath, String(pid));
    expectTaken();
  });

  test('a lock naming a pid that now belongs to another program (other start time) is taken over', () => {
    const other = sleeper();
    const pid = other.pid as number;
    const startTime = processStat(pid)?.startTime as string;
    writeLock(pid, String(Number(startTime) - 100));
    expectTaken();
  });

  test('a lock naming a pid that does not exist, or unreadable, is taken over', () => {
    writeLock(999_999_999, '1');
    expectTaken();
    fs.writeFileSync(lockPath, 'garbage');
    expectTaken();
  });
});
