import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot } from '../helpers/databases.ts';
import { childEnv } from '../helpers/child-env.ts';
import { listeningPort } from '../helpers/listening-port.ts';

interface Run {
  code: number | null;
  output: string;
}

/** Runs `node core/main.ts` as npm start does, with the given env. */
function startService(env: Record<string, string>, onOutput?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['core/main.ts'], { cwd: projectRoot, env: { ...childEnv(), ...env } });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      onOutput?.(output, child);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the service process', () => {
  it('refuses to start on a bad value, naming the key', async () => {
    const run = await startService({ PowerOutages__PollingIntervalSeconds: 'soon', Database__EmbeddedPath: mkdtempSync(path.join(tmpRoot(), 'pg-')) });
    expect(run.code).toBe(1);
    expect(run.output).toContain('PowerOutages__PollingIntervalSeconds must be integer');
  });

  it('serves on the port it says it listens on (0: one the OS chose) and stops cleanly on SIGTERM', async () => {
    let readyStatus = 0;
    const run = await startService({ Server__Port: '0', Database__EmbeddedPath: mkdtempSync(path.join(tmpRoot(), 'pg-')) }, (output, child) => {
      const port = listeningPort(output);
      if (readyStatus || port === undefined) return;
      readyStatus = -1;
      fetch(`http://127.0.0.1:${port}/health/ready`).then((response) => {
        readyStatus = response.status;
        child.kill('SIGTERM');
      });
    });
    expect(readyStatus).toBe(200);
    expect(run.code).toBe(0);
    expect(run.output).toContain('"signal":"SIGTERM"');
  });

  it('npm start passes a SIGTERM sent to npm on to the service, which stops and frees its port', async () => {
    // In a process group of its own, so whatever is left (a service npm failed to stop) is killed at the end.
    const child = spawn('npm', ['start'], {
      detached: true,
      cwd: projectRoot,
      env: { ...childEnv(), Server__Port: '0', Database__EmbeddedPath: mkdtempSync(path.join(tmpRoot(), 'pg-')) },
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (listeningPort(output) !== undefined) resolve();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
    });
    const port = listeningPort(output)!;
    try {
      child.kill('SIGTERM'); // npm itself, as `kill <pid of npm start>` or a process manager does
      await exited;
      expect(output).toContain('"signal":"SIGTERM"');
      // Nothing is left listening: the service, not only npm, is gone.
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/`).then(
              () => 'answering',
              () => 'closed',
            ),
          { timeout: 10_000 },
        )
        .toBe('closed');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already: nothing was left behind
      }
    }
  });

  it('stops gracefully on SIGHUP (a closed terminal): says so, exits 0, and leaves no lock on the embedded database', async () => {
    const dataDir = mkdtempSync(path.join(tmpRoot(), 'pg-'));
    let sent = false;
    const run = await startService({ Server__Port: '0', Database__EmbeddedPath: dataDir }, (output, child) => {
      if (sent || listeningPort(output) === undefined) return;
      sent = true;
      expect(existsSync(path.join(dataDir, 'notification-pipeline.lock'))).toBe(true);
      child.kill('SIGHUP');
    });
    // The process's own words when it fails: what a loaded machine's run would otherwise hide.
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toMatch(/"signal":"SIGHUP".*"msg":"shutting down"/);
    expect(existsSync(path.join(dataDir, 'notification-pipeline.lock'))).toBe(false);
  });

  it('names Server__Port when the port is taken, and exits 1 having released the database', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const dataDir = mkdtempSync(path.join(tmpRoot(), 'pg-'));
    try {
      const run = await startService({ Server__Port: String(port), Database__EmbeddedPath: dataDir });
      expect(run.code).toBe(1);
      expect(run.output).toContain(`Start-up failed: port ${port} on 127.0.0.1 is already in use by another program. Set Server__Port to a free port`);
      expect(run.output).not.toContain('EADDRINUSE: address already in use');
      expect(existsSync(path.join(dataDir, 'notification-pipeline.lock'))).toBe(false);
    } finally {
      holder.close();
    }
  });
});
