/**
 * The environment a test gives a process it spawns, beside that process's
 * own settings: PATH, and the system clock's preload when the run's clock
 * is faked (`npm run test:any-hour` preloads libfaketime), so every process
 * of a test shares one clock, as the processes of one host do. Nothing
 * else of the test's environment (no .env, no connection string) leaks in.
 */
export function childEnv(): Record<string, string> {
  const kept: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (name === 'LD_PRELOAD' || name === 'TZ' || name.startsWith('FAKETIME'))) kept[name] = value;
  }
  return kept;
}
