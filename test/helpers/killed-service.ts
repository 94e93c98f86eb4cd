import { spawn } from 'node:child_process';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { START_FLAGS } from '../../demo/service-process.ts';
import { childEnv } from './child-env.ts';

/** The service as `npm start` runs it, in a process of its own the test can kill -9. */
export function spawnService(env: Record<string, string>, pluginsDir: string) {
  const child = spawn(process.execPath, [...START_FLAGS, 'core/main.ts'], {
    cwd: projectRoot,
    env: { ...childEnv(), ...env, Server__Port: String(21000 + Math.floor(Math.random() * 20000)), Logging__Level: 'warn', PLUGINS_DIR: pluginsDir },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    exited,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits until the ledger holds `count` delivered rows. */
export async function waitForDelivered(knex: Knex, count: number): Promise<void> {
  await expect
    .poll(async () => Number((await knex('notification_delivery_ledger').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n), { timeout: 120_000, interval: 200 })
    .toBe(count);
}
