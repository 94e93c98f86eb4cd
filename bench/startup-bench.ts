/**
 * `npm run bench:startup`: how long `npm start` takes to answer
 * `GET /health/ready` with 200 on the embedded database, and the memory of
 * the service process on the way there.
 *
 * Each run starts the real service (the command line of `npm start`, run
 * directly so npm's own ~0.3 s is not counted) on a fresh, empty data
 * folder, waits for readiness, stays idle a few seconds, stops it with
 * SIGTERM, then starts it again on the same folder (a restart: no database
 * to create, no migration pending).
 *
 * Read from /proc when the service answers 200: CPU time of all its threads
 * (less sensitive to busy neighbours than the wall clock), the resident set
 * (VmRSS) and its high-water mark (VmHWM, the peak since spawn); then the
 * peak again after the idle seconds, since work started during the start
 * (V8 optimising WebAssembly in the background) can peak after it. Phases
 * come from the service's own log lines.
 *
 * Options: `--runs N` (default 5), `--settle S` idle seconds after ready
 * (default 5), `--node-arg X` (repeatable) replaces the node options of
 * `npm start` (`--node-arg=` for none), to compare V8 or Node options.
 */
import { spawn } from 'node:child_process';
import { START_FLAGS } from '../demo/service-process.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { freeLoopbackPort } from '../demo/web/loopback.ts';
import { cpuSecondsOf, memoryMiB } from './e2e/measure.ts';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../core/paths.ts';
import { median } from './bench-support.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, settle: { type: 'string', default: '5' }, 'node-arg': { type: 'string', multiple: true } },
});
const RUNS = Number(args.runs);
const SETTLE_MS = Number(args.settle) * 1000;
const READY_TIMEOUT_MS = 120_000;

/**
 * `node [options] core/main.ts` from the start script, so the bench measures
 * what `npm start` runs; without `--env-file…`, so a local .env cannot point
 * the bench at another database.
 */
function startCommand(): string[] {
  return [...(args['node-arg'] ? args['node-arg'].filter(Boolean) : START_FLAGS), path.join(projectRoot, 'core/main.ts')];
}

interface StartMeasurement {
  readyMs: number;
  cpuMs: number;
  rssMiB: number;
  peakRssMiB: number;
  peakAfterSettleMiB: number;
  rssAfterSettleMiB: number;
  /** Milliseconds from spawn to each phase's log line. */
  phases: Record<string, number>;
}

const PHASE_MESSAGES: Record<string, string> = {
  starting: 'config read, plugins imported',
  'migrations applied': 'database open, migrations applied',
  'Server listening at': 'listening',
};

async function startOnce(dataDir: string, command: string[]): Promise<StartMeasurement> {
  const port = await freeLoopbackPort();
  const env: NodeJS.ProcessEnv = { ...process.env, Database__EmbeddedPath: dataDir, Server__Host: '127.0.0.1', Server__Port: String(port) };
  delete env.ConnectionStrings__DefaultConnection;
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, command, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', (code) => resolve(void (exitCode = code))));
  const phases: Record<string, number> = {};
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const line of chunk.split('\n')) {
      const entry = /^\{.*\}$/.test(line) ? (JSON.parse(line) as { msg?: string; time?: number }) : undefined;
      const phase = Object.keys(PHASE_MESSAGES).find((message) => entry?.msg?.startsWith(message));
      if (phase && entry?.time) phases[PHASE_MESSAGES[phase]] ??= entry.time - spawnedAt;
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    while (Date.now() - spawnedAt < READY_TIMEOUT_MS) {
      if (exitCode !== undefined) throw new Error(`the service exited (${exitCode}) before it was ready:\n${output}`);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) {
        const readyMs = Date.now() - spawnedAt;
        const atReady = memoryMiB(child.pid!);
        const cpu = cpuSecondsOf(child.pid!) * 1000;
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const settled = memoryMiB(child.pid!);
        return { readyMs, cpuMs: cpu, rssMiB: atReady.rss, peakRssMiB: atReady.peak, peakAfterSettleMiB: settled.peak, rssAfterSettleMiB: settled.rss, phases };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`not ready within ${READY_TIMEOUT_MS} ms:\n${output}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const spread = (values: number[]) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;

function report(title: string, runs: StartMeasurement[]): string {
  const settle = `${SETTLE_MS / 1000} s later`;
  const phaseNames = Object.values(PHASE_MESSAGES).filter((name) => runs.every((run) => run.phases[name] !== undefined));
  const line = (label: string, values: number[], unit: string) => `  ${label.padEnd(28)} ${spread(values)} ${unit}`;
  return [
    `${title}:`,
    line(
      'ready after',
      runs.map((r) => r.readyMs),
      'ms',
    ),
    line(
      'CPU time until ready',
      runs.map((r) => r.cpuMs),
      'ms',
    ),
    line(
      'peak RSS until ready',
      runs.map((r) => r.peakRssMiB),
      'MiB',
    ),
    line(
      'RSS when ready',
      runs.map((r) => r.rssMiB),
      'MiB',
    ),
    line(
      `peak RSS until ${settle}`,
      runs.map((r) => r.peakAfterSettleMiB),
      'MiB',
    ),
    line(
      `RSS ${settle}`,
      runs.map((r) => r.rssAfterSettleMiB),
      'MiB',
    ),
    ...phaseNames.map((name) => `    ${name.padEnd(36)} at ${spread(runs.map((r) => r.phases[name]))} ms`),
  ].join('\n');
}

const command = startCommand();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'np-startup-bench-'));
const loadBefore = os.loadavg();
const fresh: StartMeasurement[] = [];
const restart: StartMeasurement[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const dataDir = path.join(scratch, `data-${run}`);
    fresh.push(await startOnce(dataDir, command));
    restart.push(await startOnce(dataDir, command));
    process.stderr.write(`run ${run + 1}/${RUNS}: fresh ${fresh.at(-1)!.readyMs} ms, restart ${restart.at(-1)!.readyMs} ms\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const loadAfter = os.loadavg();
process.stdout.write(
  `${[
    `Start-up on embedded PGlite: node ${command.map((word) => (path.isAbsolute(word) ? path.relative(projectRoot, word) : word)).join(' ')}`,
    `${RUNS} runs, median (min–max); Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after (1-minute).`,
    report('Fresh data folder (first start)', fresh),
    report('Same folder again (restart)', restart),
  ].join('\n')}\n`,
);
