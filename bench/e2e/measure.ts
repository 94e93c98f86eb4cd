import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of a process in MiB, from /proc (Linux); 0 where there is none. */
export function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return memoryMiB(pid).rss || 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function rssSampler(pid: number | undefined, everyMs = 50) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** The largest gap between consecutive times (ms), or 0 with fewer than two. */
export function largestGap(times: readonly number[]): number {
  let largest = 0;
  for (let i = 1; i < times.length; i += 1) largest = Math.max(largest, times[i] - times[i - 1]);
  return largest;
}

export const wallClock = () => performance.timeOrigin + performance.now();

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Runs `count` calls of `fn` with at most `limit` at once. */
export async function inParallel(count: number, limit: number, fn: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

export const ratio = (value: number, floor: number) => (floor > 0 ? value / floor : Number.NaN);

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds (user + system) a process has used so far: fields 14 and 15 of /proc/<pid>/stat (the command name before them may hold spaces and parentheses). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** The same, 0 where there is no such process (Linux only). */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return cpuSecondsOf(pid);
  } catch {
    return 0;
  }
}

/** A process's resident memory now and its high-water mark (VmRSS, VmHWM), in MiB. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** CPU seconds used so far by every PostgreSQL server process of this machine (the backends of all clients). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim().startsWith('postgres')) total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** The machine's CPU time so far, from /proc/stat: seconds busy and idle (iowait counts as idle), summed over every core. */
export function machineCpu(): { busy: number; idle: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const [, ...fields] = lines[0].split(/\s+/).filter(Boolean);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return {
    busy: (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND,
    idle: (idle + iowait) / CLOCK_TICKS_PER_SECOND,
    cores: lines.filter((line) => /^cpu\d+ /.test(line)).length,
  };
}

/** Samples machineCpu() every `everyMs` with the wall clock, so a window known only afterwards (poll → last message) can be read. */
export function machineCpuSampler(everyMs = 100) {
  const samples: Array<{ at: number; busy: number; idle: number }> = [];
  const take = () => samples.push({ at: wallClock(), ...machineCpu() });
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => clearInterval(timer),
    /** Busy and idle core-seconds between two wall-clock times (the nearest samples inside them). */
    between(from: number, to: number): { busy: number; idle: number } {
      const first = samples.find((sample) => sample.at >= from) ?? samples[0];
      const last = [...samples].reverse().find((sample) => sample.at <= to) ?? samples.at(-1)!;
      return { busy: last.busy - first.busy, idle: last.idle - first.idle };
    },
  };
}
