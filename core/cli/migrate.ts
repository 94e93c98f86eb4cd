import { configurePlatform } from '../boot.ts';
import { readProcessEnv } from '../config/env-source.ts';
import { describeSectionTypo } from '../config/section-typos.ts';
import { createDatabase } from '../db/database.ts';
import { runMigrations } from '../db/migrate.ts';
import { pluginRootsOf } from '../paths.ts';

/** `npm run migrate`: applies the migrations of core and every plugin, then exits (non-zero on failure). */
try {
  const { registry, config, loaded } = await configurePlatform(readProcessEnv(), pluginRootsOf(process.env));
  for (const key of loaded.unknownKeys) process.stderr.write(`warning: unknown configuration key ignored (a typo?): ${key}\n`);
  for (const typo of loaded.sectionTypos) process.stderr.write(`warning: ${describeSectionTypo(typo)}\n`);
  const database = createDatabase({
    connectionString: config.ConnectionStrings.DefaultConnection,
    embeddedPath: config.Database.EmbeddedPath,
    poolMax: config.Database.PoolMax,
  });
  try {
    const { applied } = await runMigrations(database, registry.migrationDirs);
    process.stdout.write(
      applied.length
        ? `applied ${applied.length} migration(s) on ${database.description}:\n  ${applied.join('\n  ')}\n`
        : `up to date: ${database.description}\n`,
    );
  } finally {
    await database.knex.destroy();
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
