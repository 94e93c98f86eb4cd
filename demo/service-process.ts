import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../core/paths.ts';

export interface ServiceProcess {
  /** The service's process id (its memory can be read from /proc). */
  readonly pid: number | undefined;
  /** Resolves when GET /health/ready answers 200; rejects when the process ends first or takes too long. */
  ready: Promise<void>;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has ended. */
  stop(graceMs?: number): Promise<number | string>;
}

/**
 * Node's flags from `npm start`, so every spawned service runs as it does:
 * --liftoff-only (a start on the embedded database peaks at ~250 MiB
 * instead of ~850) and the heap bounds (docs/performance.md, start-up time and memory).
 */
export const START_FLAGS: readonly string[] = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).scripts.start as string)
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--') && !arg.startsWith('--env-file'));
const READY_TIMEOUT_MS = 180_000;

/**
 * The real service, `node core/main.ts` as `npm start` runs it, in a child
 * process with exactly the given environment; its output goes to `onOutput`.
 */
export function startServiceProcess(
  env: Record<string, string>,
  serviceUrl: string,
  onOutput: (chunk: Buffer) => void,
  options: { ownProcessGroup?: boolean; pluginsDir?: string } = {},
): ServiceProcess {
  // With a chosen set of plugins, the same start (core/serve.ts) with that folder in place of plugins/ and PLUGINS_DIR.
  const entry = options.pluginsDir === undefined ? ['core/main.ts'] : ['test/fixtures/serve-with-plugins.ts', options.pluginsDir];
  // In a process group of its own, a terminal's Ctrl-C reaches only the parent, which stops the service with one SIGTERM
  // (the service takes a second signal as "stop now").
  const child: ChildProcess = spawn(process.execPath, [...START_FLAGS, ...entry], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup === true,
  });
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  let running = true;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      running = false;
      resolve(`could not start: ${err.message}`);
    });
  });

  const ready = (async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (running) {
      if (Date.now() > deadline) throw new Error(`the service was not ready after ${READY_TIMEOUT_MS / 1000} s`);
      const status = await fetch(`${serviceUrl}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the service stopped before it was ready (exit ${await exited})`);
  })();
  ready.catch(() => undefined); // the caller awaits it; an early stop must not crash the process first

  return {
    pid: child.pid,
    ready,
    exited,
    async stop(graceMs = 25_000) {
      if (running) child.kill('SIGTERM');
      const force = setTimeout(() => running && child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(force);
      return result;
    },
  };
}
