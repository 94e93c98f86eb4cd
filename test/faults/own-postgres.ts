import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freeLoopbackPort } from '../../demo/web/loopback.ts';

/** The newest installed PostgreSQL's programs (Debian keeps them out of PATH). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL server programs (initdb, pg_ctl) not found under /usr/lib/postgresql');
  return found;
}

/** PostgreSQL refuses to run as root: as root, its programs run as the postgres user. */
function asOwner(program: string, args: readonly string[]): string {
  const command = path.join(binDir(), program);
  const root = userInfo().uid === 0;
  const result = root ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

export interface OwnPostgres {
  readonly port: number;
  readonly url: string;
  /** pg_ctl restart -m fast: every connection cut, the server back once it accepts connections again. */
  restart(): Promise<void>;
  /** A client to the cluster's test database (a superuser). */
  client(): Promise<pg.Client>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL cluster the fault suite owns (initdb in a scratch folder,
 * its own port), so a test can restart it or fill its connections without
 * touching the machine's server that the rest of the tests share.
 * `maxConnections` is the server's max_connections, none reserved for
 * superusers: a test can fill them all.
 */
export async function startOwnPostgres(options: { maxConnections?: number } = {}): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'np-fault-pg-'));
  chmodSync(dir, 0o755);
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  asOwner('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const port = await freeLoopbackPort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 100}`,
    '-c superuser_reserved_connections=0',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  const ctl = (...args: string[]) => asOwner('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', path.join(dir, 'server.log'), ...args]);
  ctl('-o', settings, 'start');
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('CREATE DATABASE faults');
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:${port}/faults`;
  return {
    port,
    url,
    async restart() {
      ctl('-m', 'fast', '-o', settings, 'restart');
    },
    async client() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    },
    async stop() {
      try {
        ctl('-m', 'immediate', 'stop');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
