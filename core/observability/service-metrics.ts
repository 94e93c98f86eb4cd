import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PollReport } from '../feeds/poll-report.ts';
import type { PluginMetrics, ScrapedGaugeDefinition } from '../plugin-api/metrics-types.ts';
import { cachedLoader } from './scrape-cache.ts';

/** A delivery outcome as the ledger records it (`queued`: handed to a transactional target, counted when it settles). */
export interface DeliveryObservation {
  readonly provider: string;
  /** `undelivered` and `gone` are what the peer said of a delivery (a carrier's report, a destination no more), counted beside its settle. */
  readonly status: 'delivered' | 'retrying' | 'failed' | 'queued' | 'undelivered' | 'gone';
}

/**
 * The service's Prometheus series (names and labels exact: dashboards and alerts rely on them),
 * in a registry of this app instance (two apps in one process, as in the
 * tests, never share a series), plus the process defaults, which are the
 * process's and are collected once. Counters count what this instance
 * did; gauges read from the database report what every instance sees.
 */
export interface ServiceMetrics {
  readonly enabled: boolean;
  /** The text /metrics answers, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
  countPoll(report: PollReport): void;
  countEvents(events: ReadonlyArray<{ readonly feedId: string; readonly eventType: string }>): void;
  countDeliveries(outcomes: readonly DeliveryObservation[]): void;
  observeDeliveryLatency(seconds: readonly number[]): void;
  observeRequest(request: { method: string; route: string; statusCode: number; seconds: number }): void;
  /** A gauge read from the database when scraped, cached for Metrics__DatabaseCacheSeconds. */
  scrapedGauge(definition: ScrapedGaugeDefinition): void;
  /** What a plugin's context gets. */
  forPlugin(pluginId: string): PluginMetrics;
}

const LATENCY_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 21600];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const COUNTED_OUTCOMES = new Set(['retrying', 'failed', 'delivered', 'undelivered', 'gone']);

let processRegistry: Registry | undefined;

/** The process's own series (CPU, memory, event loop, GC): one set per process, whatever the apps in it. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createServiceMetrics(options: { cacheSeconds: number; log: FastifyBaseLogger }): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  const polls = new Counter({
    name: 'notification_feed_polls_total',
    help: 'Polls of each feed by outcome (changed, unchanged, failed).',
    labelNames: ['feed', 'outcome'],
    registers,
  });
  const rejectedItems = new Counter({
    name: 'notification_feed_items_rejected_total',
    help: 'Items of feed answers left out (the rest of the answer was processed), by feed and reason.',
    labelNames: ['feed', 'reason'],
    registers,
  });
  const events = new Counter({
    name: 'notification_events_total',
    help: 'Events handed to the pipeline, by feed and event type.',
    labelNames: ['feed', 'event_type'],
    registers,
  });
  const deliveries = new Counter({
    name: 'notification_deliveries_total',
    help: 'Delivery outcomes recorded in the ledger, by provider (delivered, retrying, failed), and what peers said of deliveries (undelivered, gone).',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  const latency = new Histogram({
    name: 'notification_delivery_latency_seconds',
    help: 'From the creation of an event to its delivery.',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route and status code.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
    registers,
  });

  const scrapedGauge = (definition: ScrapedGaugeDefinition) => {
    const read = cachedLoader(options.cacheSeconds * 1000, () => definition.read());
    new Gauge({
      name: definition.name,
      help: definition.help,
      labelNames: [...definition.labelNames],
      registers,
      async collect() {
        let samples: Awaited<ReturnType<typeof read>>;
        try {
          samples = await read();
        } catch (err) {
          // A scrape while the database is away shows no value rather than failing the whole answer.
          options.log.warn({ err, metric: definition.name }, 'a metric could not be read from the database');
          samples = [];
        }
        this.reset();
        for (const sample of samples) this.set({ ...sample.labels }, sample.value);
      },
    });
  };

  return {
    enabled: true,
    async scrape() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: registry.contentType, body: await merged.metrics() };
    },
    countPoll(report) {
      polls.inc({ feed: report.feedId, outcome: report.outcome });
      for (const item of report.rejected ?? []) rejectedItems.inc({ feed: report.feedId, reason: item.reason });
    },
    countEvents(list) {
      for (const event of list) events.inc({ feed: event.feedId, event_type: event.eventType });
    },
    countDeliveries(outcomes) {
      // One increment per provider and outcome, not per delivery: a batch is hundreds of rows and a few label sets.
      const counts = new Map<string, Map<string, number>>();
      for (const { provider, status } of outcomes) {
        if (!COUNTED_OUTCOMES.has(status)) continue;
        let byStatus = counts.get(provider);
        if (!byStatus) counts.set(provider, (byStatus = new Map()));
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      }
      for (const [provider, byStatus] of counts) for (const [outcome, count] of byStatus) deliveries.inc({ provider, outcome }, count);
    },
    observeDeliveryLatency(seconds) {
      for (const value of seconds) latency.observe(Math.max(0, value));
    },
    observeRequest: ({ method, route, statusCode, seconds }) => http.observe({ method, route, status_code: String(statusCode) }, seconds),
    scrapedGauge,
    forPlugin: () => ({ gauge: scrapedGauge }),
  };
}

/** Metrics__Enabled=false: nothing is counted, nothing is read. */
export const noMetrics: ServiceMetrics = Object.freeze({
  enabled: false,
  scrape: async () => ({ contentType: 'text/plain', body: '' }),
  countPoll: () => undefined,
  countEvents: () => undefined,
  countDeliveries: () => undefined,
  observeDeliveryLatency: () => undefined,
  observeRequest: () => undefined,
  scrapedGauge: () => undefined,
  forPlugin: () => ({ gauge: () => undefined }),
});
