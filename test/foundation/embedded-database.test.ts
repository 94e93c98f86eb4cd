import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../core/app.ts';
import { LOCK_FILE_NAME } from '../../core/db/data-folder-lock.ts';
import { createDatabase } from '../../core/db/database.ts';
import { EMBEDDED_SHARED_BUFFERS } from '../../core/db/embedded-database.ts';
import { installedPgliteVersion, readTemplateStamp } from '../../core/db/embedded-template.ts';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot } from '../helpers/databases.ts';
import { childEnv } from '../helpers/child-env.ts';
import { listeningPort } from '../helpers/listening-port.ts';

interface Exit {
  code: number | null;
  output: string;
}

function run(script: string, env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<Exit> } {
  const child = spawn(process.execPath, [script], { cwd: projectRoot, env: { ...childEnv(), ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { child, output: () => output, exited };
}

/** Waits until a service started on port 0 says where it listens and answers ready there; its port. */
async function waitReady(service: ReturnType<typeof run>): Promise<number> {
  let exitedEarly: Exit | undefined;
  void service.exited.then((exit) => (exitedEarly = exit));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (exitedEarly) throw new Error(`the service exited (${exitedEarly.code}):\n${exitedEarly.output}`);
    const port = listeningPort(service.output());
    const status =
      port === undefined
        ? 0
        : await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (response) => response.status,
            () => 0,
          );
    if (status === 200) return port!;
  }
  throw new Error(`the service was not ready within 60 s:\n${service.output()}`);
}

describe('a fresh embedded data folder', () => {
  async function openAndDescribe(dir: string) {
    const database = createDatabase({ embeddedPath: dir });
    try {
      const { rows } = await database.knex.raw("SELECT system_identifier::text AS id, current_setting('shared_buffers') AS buffers FROM pg_control_system()");
      return rows[0];
    } finally {
      await database.knex.destroy();
    }
  }

  it('is laid out from the bundled template of the installed PGlite, with small shared buffers', async () => {
    const stamp = readTemplateStamp();
    expect(stamp?.pglite, 'run `npm run db:embedded-template` after upgrading PGlite, and commit the result').toBe(installedPgliteVersion());
    const dir = mkdtempSync(path.join(tmpRoot(), 'pg-template-'));
    try {
      expect(await openAndDescribe(dir)).toEqual({ id: stamp!.systemIdentifier, buffers: EMBEDDED_SHARED_BUFFERS });
      expect(readdirSync(dir)).not.toContain(LOCK_FILE_NAME);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is laid out again when an earlier lay-out was interrupted (no PG_VERSION yet)', async () => {
    const dir = mkdtempSync(path.join(tmpRoot(), 'pg-template-'));
    try {
      mkdirSync(path.join(dir, 'base', '5'), { recursive: true });
      writeFileSync(path.join(dir, 'base', '5', 'torn'), 'half a file');
      mkdirSync(path.join(dir, '.template-partial'));
      expect((await openAndDescribe(dir)).id).toBe(readTemplateStamp()!.systemIdentifier);
      expect(existsSync(path.join(dir, 'base', '5', 'torn'))).toBe(false);
      expect(existsSync(path.join(dir, '.template-partial'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a start that fails while wiring', () => {
  it('gives the data folder back, whatever step failed', async () => {
    const dir = mkdtempSync(path.join(tmpRoot(), 'pg-failed-start-'));
    const pluginsDir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    cpSync(path.join(projectRoot, 'test', 'fixtures', 'broken-plugins', 'failing-target'), path.join(pluginsDir, 'failing-target'), { recursive: true });
    try {
      const start = buildApp({ env: { Database__EmbeddedPath: dir }, pluginsDir, logStream: { write: () => undefined } });
      await expect(start).rejects.toThrow('the failing target refuses to start');
      expect(readdirSync(dir)).not.toContain(LOCK_FILE_NAME);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(pluginsDir, { recursive: true, force: true });
    }
  });
});

describe('one process per embedded data folder', () => {
  let dir: string;
  let env: Record<string, string>;
  let port: number;
  let service: ReturnType<typeof run>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpRoot(), 'pg-lock-'));
    env = { Database__EmbeddedPath: dir, Logging__Level: 'info' };
    service = run('core/main.ts', { ...env, Server__Port: '0', Serverr__Port: '5001' });
    port = await waitReady(service);
  }, 90_000);
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('warns once at start about a misspelled section, naming the variable and the section meant', () => {
    const warnings = service
      .output()
      .split('\n')
      .filter((line) => line.includes('Serverr__Port'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40, key: 'Serverr__Port', section: 'Server', suggestion: 'Server__Port' });
    expect(warnings[0]).toContain('did you mean Server__Port?');
  });

  it('npm run migrate fails with a clear message while the service runs', async () => {
    const migrate = await run('core/cli/migrate.ts', env).exited;
    expect(migrate.code).toBe(1);
    expect(migrate.output).toContain(`The embedded database in ${dir} is in use by process ${service.child.pid} (core/main.ts, since `);
    expect(migrate.output).toContain('`npm run migrate` needs it stopped');
  }, 60_000);

  it('a second service on the same folder fails the same way, and the first one still answers', async () => {
    const second = await run('core/main.ts', { ...env, Server__Port: '0' }).exited;
    expect(second.code).toBe(1);
    expect(second.output).toContain(`Start-up failed: The embedded database in ${dir} is in use by process ${service.child.pid} (core/main.ts, since `);
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
  }, 60_000);

  it('once the service has stopped, the lock is gone and migrate runs', async () => {
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
    const migrate = await run('core/cli/migrate.ts', env).exited;
    expect(migrate).toMatchObject({ code: 0 });
    expect(migrate.output).toContain('up to date');
  }, 60_000);

  it('the lock of a killed service is taken over', async () => {
    const killed = run('core/main.ts', { ...env, Server__Port: '0' });
    await waitReady(killed);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
    const migrate = await run('core/cli/migrate.ts', env).exited;
    expect(migrate).toMatchObject({ code: 0 });
    expect(migrate.output).toContain('up to date');
  }, 90_000);
});
