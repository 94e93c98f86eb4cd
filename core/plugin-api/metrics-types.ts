/** One value of a gauge, with its labels: `{ labels: { state: 'pending' }, value: 3 }`. */
export interface GaugeSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * A gauge whose values are read when /metrics is scraped (a count of the
 * plugin's own rows). Core caches the read for a few seconds
 * (Metrics__DatabaseCacheSeconds), so every scrape costs at most one read
 * per period: keep the read bounded (LIMIT, an index).
 */
export interface ScrapedGaugeDefinition {
  /** A Prometheus metric name: `notification_email_outbox_items`. */
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  read(): Promise<readonly GaugeSample[]>;
}

/** How a plugin adds series to /metrics (nothing happens when Metrics__Enabled is false). */
export interface PluginMetrics {
  gauge(definition: ScrapedGaugeDefinition): void;
}
