/** What the lock file of an embedded data folder says about the process that holds it. */
export interface LockHolder {
  pid: number;
  host: string;
  /** Linux: the kernel's boot id, so a lock left before a reboot counts as stale. */
  bootId?: string;
  /** Linux: the process's start time (clock ticks since boot), so a reused pid is told apart. */
  startTime?: string;
  /** The script that holds it, relative to the project (`core/main.ts`, `core/cli/migrate.ts`). */
  command: string;
  since: string;
  /** Random per acquisition: tells this acquisition apart from an earlier one of the same process. */
  token: string;
}

/** Facts about the machine and the current process, gathered at the edge (see data-folder-lock.ts). */
export interface LockProbe {
  pid: number;
  host: string;
  bootId?: string;
  isAlive(pid: number): boolean;
  startTimeOf(pid: number): string | undefined;
  /** Whether this process holds the lock with that token right now. */
  heldHere(token: string): boolean;
}

/**
 * `live`: a running process holds the folder; `stale`: the holder is gone
 * and the lock may be taken over; `other-host`: written on another machine
 * (or container), whose processes cannot be checked from here.
 */
export type HolderState = 'live' | 'stale' | 'other-host';

/** Decides whether a lock file still protects a running process. Pure: the probe brings the facts. */
export function holderState(holder: LockHolder | undefined, probe: LockProbe): HolderState {
  if (!holder) return 'stale';
  if (holder.host !== probe.host) return 'other-host';
  if (holder.bootId && probe.bootId && holder.bootId !== probe.bootId) return 'stale';
  if (holder.pid === probe.pid) return probe.heldHere(holder.token) ? 'live' : 'stale';
  if (!probe.isAlive(holder.pid)) return 'stale';
  const startTime = probe.startTimeOf(holder.pid);
  if (holder.startTime && startTime && holder.startTime !== startTime) return 'stale';
  return 'live';
}

/** Reads a lock file's text; anything unreadable counts as no holder (a torn or foreign file). */
export function parseLockHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(value.pid) || typeof value.host !== 'string' || typeof value.token !== 'string') return undefined;
    return {
      pid: value.pid!,
      host: value.host,
      bootId: typeof value.bootId === 'string' ? value.bootId : undefined,
      startTime: typeof value.startTime === 'string' ? value.startTime : undefined,
      command: typeof value.command === 'string' ? value.command : 'unknown',
      since: typeof value.since === 'string' ? value.since : 'unknown',
      token: value.token,
    };
  } catch {
    return undefined;
  }
}
