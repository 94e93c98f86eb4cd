import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from 'tar';

/**
 * A fresh embedded data folder is laid out from a copy of what PGlite's
 * initdb writes (made by `npm run db:embedded-template`), and PGlite then
 * opens it as an existing database. PGlite 0.5 runs initdb in a second
 * whole PGlite instance, which was most of a first start: about 3 s of CPU
 * and about 1 GB of peak memory.
 */
export const templateFile = fileURLToPath(new URL('./embedded-template/pgdata.tar.br', import.meta.url));
export const templateStampFile = fileURLToPath(new URL('./embedded-template/stamp.json', import.meta.url));

export interface TemplateStamp {
  /** The PGlite package that made it: a template only serves that exact version. */
  pglite: string;
  postgres: string;
  /** pg_control's system identifier: every folder made from the template shares it. */
  systemIdentifier: string;
}

export function installedPgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

export function readTemplateStamp(): TemplateStamp | undefined {
  if (!existsSync(templateStampFile) || !existsSync(templateFile)) return undefined;
  return JSON.parse(readFileSync(templateStampFile, 'utf8')) as TemplateStamp;
}

/** A folder holds a database once PG_VERSION is in it: it is written last, so an interrupted lay-out is redone. */
const PG_VERSION = 'PG_VERSION';
const PARTIAL = '.template-partial';

/**
 * Lays the template out in a data folder that holds no database yet (the
 * caller holds the folder's lock), when a template for the installed PGlite
 * exists. Returns whether it did; when not, PGlite runs initdb as before.
 * Extraction streams (no whole copy in memory), into a scratch folder first.
 */
export function layOutFromTemplate(dataDir: string): boolean {
  if (existsSync(path.join(dataDir, PG_VERSION))) return false;
  const stamp = readTemplateStamp();
  if (!stamp || stamp.pglite !== installedPgliteVersion()) return false;
  const partial = path.join(dataDir, PARTIAL);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  extract({ file: templateFile, cwd: partial, sync: true, brotli: true });
  const entries = readdirSync(partial).sort((a, b) => Number(a === PG_VERSION) - Number(b === PG_VERSION));
  for (const entry of entries) {
    rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    renameSync(path.join(partial, entry), path.join(dataDir, entry));
  }
  rmSync(partial, { recursive: true, force: true });
  return true;
}
