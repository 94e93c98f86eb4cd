import type { EnvSnapshot } from './config/env-source.ts';
import type { PluginRoot } from './paths.ts';
import closeWithGrace from 'close-with-grace';
import { buildApp, servicesOf } from './app.ts';
import { readProcessEnv } from './config/env-source.ts';
import { ConfigError } from './config/load-config.ts';
import { listenProblem } from './http/listen-problem.ts';

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
async function main(pluginsOf: (env: EnvSnapshot) => string | readonly PluginRoot[]): Promise<void> {
  const env = readProcessEnv();
  const app = await buildApp({ env, pluginsDir: pluginsOf(env) });
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
  // Listening, this run owns the instance's name: what a killed earlier run held goes out now, not after its lease.
  try {
    const given = await servicesOf(app).takeBackEarlierRuns();
    if (given.deliveries + given.fanouts > 0) app.log.warn(given, 'took back the leases an earlier run of this instance held when it stopped');
  } catch (err) {
    app.log.warn({ err }, "could not take back an earlier run's leases; they are retaken when they lapse");
  }
}

/** Runs the service with the plugins `pluginsOf` finds; a start that fails says why on stderr and exits 1. */
export function runService(pluginsOf: (env: EnvSnapshot) => string | readonly PluginRoot[]): Promise<void> {
  return main(pluginsOf).catch((error: unknown) => {
    // Start-up errors name keys, folders, migrations or the port, never values.
    const message = error instanceof ConfigError ? error.message : `Start-up failed: ${(error as Error)?.message ?? String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
