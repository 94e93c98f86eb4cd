import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, type BrotliOptions } from 'node:zlib';
import { create } from 'tar';
import { installedPgliteVersion, templateFile, templateStampFile, type TemplateStamp } from '../db/embedded-template.ts';

/**
 * `npm run db:embedded-template`: lets PGlite create a database in a scratch
 * folder (its initdb), drops the template databases, shuts it down cleanly,
 * and stores the folder as a brotli-compressed tar with a stamp naming the
 * PGlite version. Run it after upgrading @electric-sql/pglite and commit
 * both files: a test fails while the stamp names another version, and until
 * then fresh folders fall back to initdb.
 */
// A window large enough to see the whole 16 MiB WAL segment halves the file.
// (Passed through to node:zlib; tar's own option type does not list `params`.)
const strongest: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS },
};
const TEMPLATE_DATABASES = ['template0', 'template1'];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'np-embedded-template-'));
try {
  const pglite = await PGlite.create(scratch);
  // PGlite serves one database, postgres; the two template databases are a
  // third of the files each and nothing here creates databases. Without them
  // a fresh folder has ~370 files instead of ~1,000 to write (24 MiB, not 39).
  for (const name of TEMPLATE_DATABASES) {
    await pglite.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pglite.exec(`DROP DATABASE ${name}`);
  }
  const {
    rows: [control],
  } = await pglite.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()');
  const {
    rows: [version],
  } = await pglite.query<{ server_version: string }>('SHOW server_version');
  await pglite.close();
  // A clean shutdown leaves no pid file; should a version leave one, it must not travel with the template.
  rmSync(path.join(scratch, 'postmaster.pid'), { force: true });
  mkdirSync(path.dirname(templateFile), { recursive: true });
  create(
    {
      file: templateFile,
      cwd: scratch,
      sync: true,
      portable: true,
      brotli: strongest,
    },
    readdirSync(scratch),
  );
  const stamp: TemplateStamp = { pglite: installedPgliteVersion(), postgres: version.server_version, systemIdentifier: control.id };
  writeFileSync(templateStampFile, `${JSON.stringify(stamp, null, 2)}\n`);
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), templateFile)} (${(statSync(templateFile).size / 2 ** 20).toFixed(1)} MiB) for PGlite ${stamp.pglite} (PostgreSQL ${stamp.postgres})\n`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
