import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { FeedAnswer } from './feed-answer.ts';
import type { NotificationEvent } from './feed-types.ts';
import type { NotificationPipeline } from './pipeline-types.ts';
import type { ValidationResult } from './validation.ts';

/** The settings every feed monitor has (`<Feed>__Enabled`, `__PollingIntervalSeconds`, `__FeedTimeoutSeconds`, `__MaxAnswerBytes`). */
export interface FeedMonitorSettings {
  readonly Enabled: boolean;
  readonly PollingIntervalSeconds: number;
  readonly FeedTimeoutSeconds: number;
  /** The most of an answer that is read; past it the poll fails. Absent: 10 MiB. */
  readonly MaxAnswerBytes?: number;
  /** The address the feed's `path` is under (`<Feed>__BaseUrl`). */
  readonly BaseUrl?: string;
  /** Sent as X-Api-Key to that address only (`<Feed>__ApiKey`); absent: no key. */
  readonly ApiKey?: string;
}

/** What the pure steps of a monitor may read besides their data. */
export interface FeedStepContext<TConfig> {
  /** The poll's clock reading: one value for the whole poll. */
  readonly now: Date;
  /** The plugin's own configuration sections. */
  readonly config: TConfig;
}

/** The feed store: the plugin's own tables, read and written in the monitor's transaction. */
export interface FeedStore<TItem, TState, TChange> {
  /** What the detector must know of the polled items (stored records keyed by id, counters…). */
  load(trx: Knex.Transaction, items: readonly TItem[]): Promise<TState>;
  /** PERSIST: the polled items and the detected changes, before the events are handed over. */
  persist(
    trx: Knex.Transaction,
    poll: { readonly items: readonly TItem[]; readonly state: TState; readonly changes: readonly TChange[]; readonly now: Date },
  ): Promise<void>;
  /**
   * Optional, for decisions that wait on the clock rather than on the feed
   * (an outage announced only once it has lasted some minutes). An
   * unchanged answer (304 or the same hash) ends a poll before DETECT, so
   * such a decision would wait for the feed's next change. With `waiting`,
   * core asks on every unchanged poll: return the items of the last answer
   * as the store holds them when some decision among them waits, or none.
   * Core then runs load, DETECT, PERSIST, MAP and the hand-over on them as
   * on a changed answer (the answer is unchanged, so they are the feed's
   * current items). Returning none keeps an unchanged poll to this query.
   */
  waiting?(trx: Knex.Transaction, poll: { readonly now: Date }): Promise<readonly TItem[]>;
}

/** What core gives `afterPoll`: the plugin's own database tables and the pipeline. */
export interface FeedMonitorRunContext<TConfig> {
  readonly config: TConfig;
  readonly db: Knex;
  readonly pipeline: NotificationPipeline;
  readonly log: FastifyBaseLogger;
  readonly now: Date;
}

/**
 * A feed monitor, as a plugin declares it. Core runs the spec's steps in
 * order on every tick: POLL `{<Feed>__BaseUrl}/<path>` through the
 * endpoint checker (an unchanged answer stops there, unless `store.waiting`
 * returns the stored items it still has to decide on), `parse` the JSON, and
 * then in ONE transaction: `store.load`, `detect` (pure), `store.persist`,
 * `map` (pure), the hand-over to ProcessNotificationEvents, and marking the
 * answer seen. A failing poll changes nothing and emits nothing; core
 * records every poll's outcome. The plugin never opens the transaction.
 */
export interface FeedMonitorSpec<TConfig, TItem = unknown, TState = unknown, TChange = unknown> {
  /** Picks the monitor's settings out of the plugin's config (its `<Feed>` section). */
  settings(config: TConfig): FeedMonitorSettings;
  /** Path of the feed under its `<Feed>__BaseUrl`, for example `power-outages`. */
  readonly path: string;
  /**
   * For the shipped utility feeds, which share one API: with no
   * `<Feed>__BaseUrl` of its own, the feed polls ExternalProvider__BaseUrl
   * with ExternalProvider__ApiKey. Any other feed has its own source only.
   */
  readonly sharedSource?: boolean;
  /**
   * How the answer lists its items (defineFeedAnswer): core checks each
   * item alone, drops the fields the schema does not name, and leaves out
   * (and reports) an item it cannot store while the others go on.
   */
  readonly answer?: FeedAnswer<TItem>;
  /**
   * The older way, for a monitor without `answer`: checks the parsed JSON
   * answer as a whole and returns its items (one bad item fails the poll).
   * Core still leaves out an item holding a control character or
   * malformed Unicode.
   */
  parse?(data: unknown): ValidationResult<readonly TItem[]>;
  readonly store: FeedStore<TItem, TState, TChange>;
  /** DETECT: the source-owned change policy. Pure: no I/O, the clock is `context.now`. */
  detect(items: readonly TItem[], state: TState, context: FeedStepContext<TConfig>): readonly TChange[];
  /** MAP: changes to NotificationEvents. Pure. */
  map(changes: readonly TChange[], context: FeedStepContext<TConfig>): readonly NotificationEvent[];
  /**
   * Work due on every tick, after the poll whatever its outcome (the
   * scheduled feed's digests): it opens its own transactions.
   */
  afterPoll?(context: FeedMonitorRunContext<TConfig>): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: any monitor whatever its types: TypeScript has no existential type, and unknown would refuse their functions
export type AnyFeedMonitor = FeedMonitorSpec<any, any, any, any>;

const MONITOR = Symbol.for('notification-pipeline.feed-monitor');

/** Declares a feed monitor (inert: core runs it). */
export function defineFeedMonitor<TConfig, TItem, TState, TChange>(
  spec: FeedMonitorSpec<TConfig, TItem, TState, TChange>,
): FeedMonitorSpec<TConfig, TItem, TState, TChange> {
  // Not enumerable: a copy made by spreading is no monitor.
  return Object.freeze(Object.defineProperty({ ...spec }, MONITOR, { value: true, enumerable: false }));
}

export function isFeedMonitor(value: unknown): value is AnyFeedMonitor {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MONITOR] === true;
}
