import { enableCompileCache } from 'node:module';

// Node keeps the compiled code of every module in its compile cache (under
// the OS temp folder, or NODE_COMPILE_CACHE), so a start after the first
// skips most of the compiling of fastify, knex, PGlite and friends. It only
// covers modules loaded after this call: hence the dynamic imports below.
enableCompileCache();
const { buildApp } = await import('./app.ts');
const { readProcessEnv } = await import('./config/env-source.ts');
const { ConfigError } = await import('./config/load-config.ts');

/**
 * `npm start`: the HTTP API plus every enabled worker. Exits non-zero when
 * configuration, plugins or migrations are wrong; stops gracefully on
 * SIGTERM / SIGINT (timers stopped, running iterations finished, database
 * closed).
 */
async function main(): Promise<void> {
  const env = readProcessEnv();
  // PLUGINS_DIR picks another plugins folder (it decides the config schema, so it is no config key).
  const app = await buildApp({ env, pluginsDir: env.PLUGINS_DIR || undefined });
  const { Host, Port } = app.services.config.Server;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ host: Host, port: Port });
}

main().catch((error: unknown) => {
  // Start-up errors name keys, folders or migrations, never values.
  const message = error instanceof ConfigError ? error.message : `Start-up failed: ${(error as Error)?.message ?? String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
