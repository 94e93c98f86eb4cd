import { enableCompileCache } from 'node:module';
import { servicesOf } from './app.ts';
import { pluginsDirOf } from './paths.ts';

// Node keeps the compiled code of every module in its compile cache (under
// the OS temp folder, or NODE_COMPILE_CACHE), so a start after the first
// skips most of the compiling of fastify, knex, PGlite and friends. It only
// covers modules loaded after this call: hence the dynamic imports below.
enableCompileCache();
const { default: closeWithGrace } = await import('close-with-grace');
const { buildApp } = await import('./app.ts');
const { readProcessEnv } = await import('./config/env-source.ts');
const { ConfigError } = await import('./config/load-config.ts');
const { listenProblem } = await import('./http/listen-problem.ts');

/** How long a graceful stop may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * `npm start`: the HTTP API plus every enabled worker. Exits non-zero when
 * configuration, plugins or migrations are wrong, or the port is taken;
 * stops gracefully on SIGTERM, SIGINT and SIGHUP (a closed terminal):
 * timers stopped, running iterations finished, database closed (the
 * embedded one's lock file removed). close-with-grace does the signal
 * handling: a second signal, or the grace running out, ends the process.
 */
async function main(): Promise<void> {
  const env = readProcessEnv();
  // PLUGINS_DIR picks another plugins folder (it decides the config schema, so it is no config key).
  const app = await buildApp({ env, pluginsDir: pluginsDirOf(env) });
  closeWithGrace(
    {
      delay: SHUTDOWN_GRACE_MS,
      logger: { error: (message: unknown) => app.log.error({ message: String(message) }, 'shutdown') },
      onTimeout: () => app.log.error('shutdown took too long; exiting'),
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'stopping after an unexpected error');
      app.log.info({ signal: signal ?? null }, 'shutting down');
      await app.close();
    },
  );
  const { Host, Port } = servicesOf(app).config.Server;
  try {
    await app.listen({ host: Host, port: Port });
  } catch (error) {
    await app.close();
    throw new Error(listenProblem(error as NodeJS.ErrnoException, Host, Port) ?? (error as Error).message, { cause: error });
  }
}

main().catch((error: unknown) => {
  // Start-up errors name keys, folders, migrations or the port, never values.
  const message = error instanceof ConfigError ? error.message : `Start-up failed: ${(error as Error)?.message ?? String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
