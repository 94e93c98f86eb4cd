import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, copyFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const deployScript = path.join(repoRoot, 'config/deploy/deploy.sh');
export const startScript = path.join(repoRoot, 'config/deploy/start.sh');
export const supervisorScript = fileURLToPath(new URL('./fixtures/supervisor.sh', import.meta.url));
export const fakeSshScript = fileURLToPath(new URL('./fixtures/fake-ssh.sh', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a bash script without blocking the event loop; never rejects on a non-zero exit. */
export function runScript(script: string, args: readonly string[], env: Record<string, string> = {}, cwd?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function hasCommand(name: string): boolean {
  try {
    execFileSync('bash', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A TCP port nothing listens on right now (never 5000). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const found = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(found));
      });
    });
    if (port !== 5000 && port !== 0) return port;
  }
}

export type ReleaseKind = 'ready' | 'unready' | 'crash' | 'no-start-command';

/**
 * A release artifact like `git archive` makes: package.json (no
 * dependencies) and its lock file, core/main.ts and a copy of the real
 * config/deploy/start.sh. core/main.ts answers /health/ready with 200 (or
 * 503) and `{ label, execArgv }`, or exits at once.
 */
export function makeArtifact(dir: string, label: string, kind: ReleaseKind): string {
  const stage = mkdtempSync(path.join(dir, `stage-${label}-`));
  mkdirSync(path.join(stage, 'core'));
  mkdirSync(path.join(stage, 'config/deploy'), { recursive: true });
  writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, type: 'module' }));
  writeFileSync(
    path.join(stage, 'package-lock.json'),
    JSON.stringify({
      name: 'fixture',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'fixture', version: '1.0.0' } },
    }),
  );
  const status = kind === 'unready' ? 503 : 200;
  const main =
    kind === 'crash'
      ? "process.stderr.write('cannot start\\n');\nprocess.exit(1);\n"
      : [
          "import http from 'node:http';",
          'const server = http.createServer((request, response) => {',
          "  response.setHeader('content-type', 'application/json');",
          `  response.statusCode = request.url === '/health/ready' ? ${status} : 404;`,
          `  response.end(JSON.stringify({ label: ${JSON.stringify(label)}, execArgv: process.execArgv }));`,
          '});',
          'server.listen(Number(process.env.Server__Port), process.env.Server__Host);',
          "process.on('SIGTERM', () => process.exit(0));",
          '',
        ].join('\n');
  writeFileSync(path.join(stage, 'core/main.ts'), main);
  if (kind !== 'no-start-command') copyFileSync(startScript, path.join(stage, 'config/deploy/start.sh'));
  const artifact = path.join(dir, `${label}.tar.gz`);
  execFileSync('tar', ['-czf', artifact, '-C', stage, '.']);
  rmSync(stage, { recursive: true, force: true });
  return artifact;
}

export interface ReadyAnswer {
  status: number;
  label?: string;
  execArgv?: string[];
}

export async function readiness(port: number): Promise<ReadyAnswer> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) });
    const body = (await response.json()) as { label?: string; execArgv?: string[] };
    return { status: response.status, label: body.label, execArgv: body.execArgv };
  } catch {
    return { status: 0 };
  }
}

/** Stops what the test supervisor started in `base` (its process group). */
export function stopService(base: string): void {
  const pidFile = path.join(base, 'service.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}
