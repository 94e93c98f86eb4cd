import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Errors } from '../errors.ts';
import { holderState, parseLockHolder, type HolderState, type LockHolder, type LockProbe } from './lock-holder.ts';

/**
 * PGlite has no lock of its own: two processes on one data folder corrupt
 * it. Whoever opens the embedded database (the service, `npm run migrate`)
 * first takes this file in the folder; a lock whose process is gone is
 * taken over.
 */
export const LOCK_FILE_NAME = 'notification-pipeline.lock';

export interface DataFolderLock {
  readonly file: string;
  /** Removes the lock file if it is still this acquisition's. Idempotent. */
  release(): void;
}

/** Tokens of the locks this process holds, by lock file: released on exit whatever happens. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function linuxBootId(): string | undefined {
  return readOrUndefined('/proc/sys/kernel/random/boot_id')?.trim();
}

/** Field 22 of /proc/<pid>/stat (start time); the command name before it may hold spaces and parentheses. */
function linuxStartTime(pid: number): string | undefined {
  const stat = readOrUndefined(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** Whether a process of this machine runs with that pid (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function probe(): LockProbe {
  return {
    pid: process.pid,
    host: os.hostname(),
    bootId: linuxBootId(),
    isAlive: isProcessAlive,
    startTimeOf: linuxStartTime,
    heldHere: (token) => [...held.values()].includes(token),
  };
}

function releaseIfOurs(file: string, token: string): void {
  if (held.get(file) !== token) return;
  held.delete(file);
  const text = readOrUndefined(file);
  if (text !== undefined && parseLockHolder(text)?.token === token) rmSync(file, { force: true });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [file, token] of held) releaseIfOurs(file, token);
  });
}

function inUseMessage(dir: string, file: string, holder: LockHolder, state: HolderState): string {
  const who = `process ${holder.pid} (${holder.command}, since ${holder.since})`;
  const where = state === 'other-host' ? ` on host "${holder.host}"` : '';
  const stale = state === 'other-host' ? `If that host no longer runs it, delete ${file}.` : `If no such process uses the folder, delete ${file}.`;
  return (
    `The embedded database in ${dir} is in use by ${who}${where}. ` +
    'PGlite serves one process at a time and two on one folder corrupt it: stop that process first ' +
    '(the service holds the database while it runs, so `npm run migrate` needs it stopped; the service applies migrations itself at start), ' +
    `or use PostgreSQL (ConnectionStrings__DefaultConnection). ${stale}`
  );
}

/**
 * Moves a stale lock aside. Between reading it and moving it, another
 * process may have taken it over already: then the file moved is that
 * process's fresh lock, and it goes back.
 */
function takeOver(file: string, staleText: string): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleText) linkSync(aside, file);
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Takes the lock of an embedded data folder for this process, or throws
 * EmbeddedDatabaseInUse naming the process that holds it. The lock file is
 * written whole (hard link of a finished file), so a reader never sees half
 * of it. `command` says who holds it in the message another process gets.
 */
export function lockDataFolder(dir: string, command: string): DataFolderLock {
  const file = path.join(dir, LOCK_FILE_NAME);
  const facts = probe();
  const mine: LockHolder = {
    pid: process.pid,
    host: facts.host,
    bootId: facts.bootId,
    startTime: linuxStartTime(process.pid),
    command,
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const staging = `${file}.new-${process.pid}-${mine.token}`;
  writeFileSync(staging, `${JSON.stringify(mine)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(staging, file);
        held.set(file, mine.token);
        installExitHook();
        return { file, release: () => releaseIfOurs(file, mine.token) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = readOrUndefined(file);
      if (text === undefined) continue;
      const holder = parseLockHolder(text);
      const state = holderState(holder, facts);
      if (state !== 'stale') throw new Errors.EmbeddedDatabaseInUse(inUseMessage(dir, file, holder!, state));
      takeOver(file, text);
    }
    throw new Errors.EmbeddedDatabaseInUse(
      `The lock of the embedded database in ${dir} keeps changing hands: several processes are opening it at once. Start one.`,
    );
  } finally {
    unlinkSync(staging);
  }
}
