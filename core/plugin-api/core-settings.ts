/**
 * Core's settings as a plugin reads them: the few a plugin has use for,
 * and nothing else (no secrets, no other plugin's sections, nothing core
 * keeps for itself). Grows only when a plugin needs another.
 */
export interface CoreSettings {
  /** The site's base address (`https://alerts.example.org`): links in messages, callback addresses. */
  readonly PublicBaseUrl: string;
  /** `production` in deployment. */
  readonly NODE_ENV: string;
  /** How long settled rows are kept: a plugin's own retention worker follows it. */
  readonly Retention: {
    readonly Days: number;
    readonly BatchSize: number;
    readonly IntervalSeconds: number;
  };
}
