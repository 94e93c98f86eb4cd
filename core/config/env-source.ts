/**
 * The one place that reads process.env. Everything else takes the returned
 * snapshot as an argument, so tests pass their own.
 */
export type EnvSnapshot = Readonly<Record<string, string | undefined>>;

export function readProcessEnv(): EnvSnapshot {
  return { ...process.env };
}
