import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../core/app.ts';
import { projectRoot } from '../core/paths.ts';

/** The service as benches build it in-process (for a bench kept in a plugin's folder, which reaches core through here). */
export { buildApp, servicesOf } from '../core/app.ts';

export const BENCH_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A scratch plugins folder inside the project (so #plugin-api resolves): the real feeds plus the given bench plugins. */
export function benchPluginsDir(benchPlugins: string[], realPlugins = ['utility-power-outages', 'utility-scheduled-outages']): string {
  const root = path.join(projectRoot, 'bench', '.tmp');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(path.join(root, 'plugins-'));
  for (const name of realPlugins) cpSync(path.join(projectRoot, 'plugins', name), path.join(dir, name), { recursive: true });
  for (const name of benchPlugins) cpSync(path.join(projectRoot, 'bench', 'plugins', name), path.join(dir, name), { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh PostgreSQL database for one bench run, or undefined when no server answers (then PGlite). */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `np_bench_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: BENCH_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Samples heap and RSS while work runs; returns the peaks above the starting point. */
export function memorySampler() {
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return { heapMiB: (peakHeap - start.heapUsed) / 2 ** 20, rssMiB: (peakRss - start.rss) / 2 ** 20 };
    },
  };
}

/** The middle value (the upper middle of an even count): benches report it because neighbours make single runs noisy. */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

/**
 * The service in-process for a bench, its workers off (the bench drives the
 * pipeline), on a fresh PostgreSQL database when a server answers, else on
 * an embedded one beside the plugins folder. `close()` removes all of it.
 */
export async function benchApp(benchPlugins: string[]) {
  const database = await benchDatabase();
  const pluginsDir = benchPluginsDir(benchPlugins);
  const app = await buildApp({
    env: database
      ? { ConnectionStrings__DefaultConnection: database.url, Logging__Level: 'warn', Database__PoolMax: '10' }
      : { Logging__Level: 'warn', Database__EmbeddedPath: `${pluginsDir}-pglite` },
    pluginsDir,
    workers: false,
  });
  await app.ready();
  return {
    app,
    database,
    async close(keep = false) {
      await app.close();
      if (keep && database) console.log(`kept ${database.url}`);
      else await database?.drop();
      removeDir(pluginsDir);
      removeDir(`${pluginsDir}-pglite`);
    },
  };
}
