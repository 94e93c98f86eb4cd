import { existsSync } from 'node:fs';
import path from 'node:path';
import { Errors } from '../errors.ts';
import type { NotificationFeedDefinition, NotificationRenderer } from '../plugin-api/feed-types.ts';
import type { DeliveryPluginManifest, FeedPluginManifest, TopicAllowlist } from '../plugin-api/manifest.ts';
import { coreMigrationsDir } from '../paths.ts';
import type { SectionOwner } from '../config/compose-schema.ts';
import type { TemplateExample } from '../config/env-template.ts';
import type { DiscoveredPlugin } from './discover.ts';
import { loadMessages, type MessageCatalog } from '../plugin-api/messages.ts';
import { migrationFiles } from './validate-manifest.ts';

/** A feed core emits itself (feed health): rendered and delivered like a plugin's, but not in the public catalog. */
export interface CoreFeed {
  readonly id: string;
  readonly feed: NotificationFeedDefinition;
  // biome-ignore lint/suspicious/noExplicitAny: renderers of any plugin's settings type
  readonly renderers: readonly NotificationRenderer<any>[];
  readonly coalescedEventTypes?: readonly string[];
}

/**
 * What the installed plugins declare, checked for clashes between them:
 * the catalog, renderers, delivery providers, topic allowlist, migration
 * folders and config sections. Holds no connections and runs nothing.
 */
export class PluginRegistry {
  readonly plugins: readonly DiscoveredPlugin[];
  readonly feeds: readonly FeedPluginManifest[];
  readonly deliveries: readonly DeliveryPluginManifest[];
  readonly topicAllowlist: TopicAllowlist;
  readonly migrationDirs: readonly string[];
  readonly #feedsById: ReadonlyMap<string, FeedPluginManifest | CoreFeed>;
  readonly #catalog: ReadonlyMap<string, FeedPluginManifest>;
  readonly #messages = new Map<string, MessageCatalog>();

  constructor(plugins: readonly DiscoveredPlugin[], coreFeeds: readonly CoreFeed[] = []) {
    this.plugins = plugins;
    this.feeds = plugins.map((p) => p.manifest).filter((m): m is FeedPluginManifest => m.kind === 'feed');
    this.deliveries = plugins.map((p) => p.manifest).filter((m): m is DeliveryPluginManifest => m.kind === 'delivery');
    this.#catalog = uniqueBy(this.feeds, (m) => m.feed.id, 'feed id');
    this.#feedsById = uniqueBy<FeedPluginManifest | CoreFeed>([...coreFeeds, ...this.feeds], (m) => m.feed.id, 'feed id');
    uniqueBy(this.deliveries, (m) => m.provider, 'delivery provider');
    const topics = new Set<string>();
    const prefixes = new Set<string>();
    for (const { manifest } of plugins) {
      for (const topic of manifest.topics?.topics ?? []) topics.add(topic);
      for (const prefix of manifest.topics?.prefixes ?? []) prefixes.add(prefix);
      if (manifest.kind === 'feed' && manifest.systemSubscription) topics.add(manifest.systemSubscription.pushTopic);
    }
    this.topicAllowlist = Object.freeze({ topics: [...topics].sort(), prefixes: [...prefixes].sort() });
    this.migrationDirs = [coreMigrationsDir, ...plugins.flatMap((p) => migrationsDirOf(p))];
    const owners = new Map<string, string>();
    for (const dir of this.migrationDirs) {
      for (const file of migrationFiles(dir)) {
        const other = owners.get(file);
        if (other) throw new Errors.PluginManifestInvalid(dir, `migration ${file} has the same name as one in ${other}`);
        owners.set(file, dir);
      }
    }
  }

  /** A plugin's own messages (its `locales/` folder; empty when it has none), read once. */
  messagesOf(pluginId: string): MessageCatalog {
    let found = this.#messages.get(pluginId);
    if (!found) {
      const plugin = this.plugins.find((p) => p.manifest.id === pluginId);
      this.#messages.set(pluginId, (found = plugin ? loadMessages(path.join(plugin.dir, 'locales')) : new Map()));
    }
    return found;
  }

  /** The catalog: every installed feed, enabled or not. */
  getAll(): NotificationFeedDefinition[] {
    return this.feeds.map((m) => m.feed);
  }

  /** A feed events may be delivered for: a plugin's, or one of core's own. */
  feed(feedId: string): FeedPluginManifest | CoreFeed | undefined {
    return this.#feedsById.get(feedId);
  }

  /** The ids of core's own feeds (feed health): delivered like a plugin's, not in the catalog. */
  coreFeedIds(): string[] {
    return [...this.#feedsById.keys()].filter((id) => !this.#catalog.has(id));
  }

  /** A feed of the public catalog (what a subscription may be created for). */
  catalogFeed(feedId: string): FeedPluginManifest | undefined {
    return this.#catalog.get(feedId);
  }

  /** The renderer of a feed for an event type; throws NP_NO_RENDERER when none. */
  rendererFor(feedId: string, eventType: string): NotificationRenderer<unknown> {
    const renderer = this.#feedsById.get(feedId)?.renderers.find((r) => r.canRender(eventType));
    if (!renderer) throw new Errors.NoRenderer(feedId, eventType);
    return renderer as NotificationRenderer<unknown>;
  }

  configOwners(): SectionOwner[] {
    return this.plugins.map(({ manifest }) => ({ owner: `plugin ${manifest.id}`, sections: manifest.config }));
  }

  templateExamples(): TemplateExample[] {
    return this.feeds.flatMap((m) => {
      const offer = m.systemSubscription;
      if (!offer) return [];
      const base = `NotificationPipeline__SystemSubscriptions__${offer.name}`;
      return [
        { key: `${base}__FeedId`, value: m.feed.id, description: `System subscription of ${m.feed.displayName}: feed id.` },
        { key: `${base}__PushTopic`, value: offer.pushTopic, description: `System subscription of ${m.feed.displayName}: push topic.` },
      ];
    });
  }
}

/** A plugin's migrations: the folder its manifest names, else its `migrations` folder by convention, if it has one. */
function migrationsDirOf(plugin: DiscoveredPlugin): string[] {
  if (plugin.manifest.migrationsDir) return [plugin.manifest.migrationsDir];
  const conventional = path.join(plugin.dir, 'migrations');
  return existsSync(conventional) ? [conventional] : [];
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string, what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(key(item))) throw new Errors.PluginManifestInvalid(key(item), `${what} declared by two plugins`);
    map.set(key(item), item);
  }
  return map;
}
