import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME, lockDataFolder } from './data-folder-lock.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'np-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => path.join(dir, LOCK_FILE_NAME);
const writeLock = (holder: Record<string, unknown>) =>
  writeFileSync(lockFile(), JSON.stringify({ host: os.hostname(), command: 'core/main.ts', since: '2026-11-23T00:00:00.000Z', token: 'theirs', ...holder }));

/** A real process of this machine that is still running, and one that has exited. */
async function withProcesses<T>(work: (running: number, exited: number) => T): Promise<T> {
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  const quick = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => quick.once('exit', resolve));
  try {
    return work(sleeper.pid!, quick.pid!);
  } finally {
    sleeper.kill();
  }
}

describe('the lock of an embedded data folder', () => {
  it('is written with this process and gone once released', () => {
    const lock = lockDataFolder(dir, 'core/main.ts');
    const holder = JSON.parse(readFileSync(lockFile(), 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: os.hostname(), command: 'core/main.ts' });
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('cannot be taken twice, even by the same process, until released', () => {
    const first = lockDataFolder(dir, 'core/main.ts');
    expect(() => lockDataFolder(dir, 'core/cli/migrate.ts')).toThrow(`is in use by process ${process.pid} (core/main.ts, since`);
    first.release();
    lockDataFolder(dir, 'core/cli/migrate.ts').release();
  });

  it('refuses while a running process holds it, naming that process and what to do', async () => {
    await withProcesses((running) => {
      writeLock({ pid: running });
      let message = '';
      try {
        lockDataFolder(dir, 'core/cli/migrate.ts');
      } catch (error) {
        message = (error as Error).message;
        expect((error as { code?: string }).code).toBe('NP_EMBEDDED_DATABASE_IN_USE');
      }
      expect(message).toContain(`The embedded database in ${dir} is in use by process ${running} (core/main.ts, since 2026-11-23T00:00:00.000Z)`);
      expect(message).toContain('stop that process first');
      expect(message).toContain('ConnectionStrings__DefaultConnection');
      expect(JSON.parse(readFileSync(lockFile(), 'utf8')).token).toBe('theirs');
    });
  });

  it('takes over the lock of a process that has exited, and a torn lock file', async () => {
    await withProcesses((_, exited) => {
      writeLock({ pid: exited });
      const lock = lockDataFolder(dir, 'core/main.ts');
      expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
      lock.release();
    });
    writeFileSync(lockFile(), '{"pid": 12');
    lockDataFolder(dir, 'core/main.ts').release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a lock written on another host, and says how to clear it', () => {
    writeLock({ pid: 1, host: 'elsewhere' });
    expect(() => lockDataFolder(dir, 'core/main.ts')).toThrow(`on host "elsewhere". `);
    expect(() => lockDataFolder(dir, 'core/main.ts')).toThrow(`If that host no longer runs it, delete ${lockFile()}.`);
  });

  it('leaves a lock that is no longer its own alone on release', () => {
    const lock = lockDataFolder(dir, 'core/main.ts');
    writeLock({ pid: 1 });
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).token).toBe('theirs');
  });
});
