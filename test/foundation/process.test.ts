import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot } from '../helpers/databases.ts';
import { childEnv } from '../helpers/child-env.ts';

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

  it('serves on the configured port and stops cleanly on SIGTERM', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    let readyStatus = 0;
    const run = await startService(
      { Server__Port: String(port), Database__EmbeddedPath: mkdtempSync(path.join(tmpRoot(), 'pg-')) },
      (output, child) => {
        if (readyStatus || !output.includes('Server listening')) return;
        readyStatus = -1;
        fetch(`http://127.0.0.1:${port}/health/ready`).then((response) => {
          readyStatus = response.status;
          child.kill('SIGTERM');
        });
      },
    );
    expect(readyStatus).toBe(200);
    expect(run.code).toBe(0);
    expect(run.output).toContain('"signal":"SIGTERM"');
  });
});
