import type { Knex } from 'knex';
import Type from 'typebox';
import { Errors } from '../errors.ts';
import type { ConfigSections, FeedPluginManifest, SectionsConfig } from '../plugin-api/manifest.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import { publicOrigin, type PublicOrigin } from './view-query.ts';

export const FeedIdParams = Type.Object(
  { feedId: Type.String({ pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$', maxLength: 100, description: 'A feed id of the catalog.' }) },
  { additionalProperties: false },
);

/** What the public views read of the running service. */
export interface PublicViewContext {
  readonly db: Knex;
  readonly now: () => Date;
  readonly origin: PublicOrigin;
  /** The feed of an id, or 404 naming it. */
  feed(feedId: string): FeedPluginManifest;
  /** The installed feed of an id, if any. */
  findFeed(feedId: string): FeedPluginManifest | undefined;
  /** The feed plugin's own config sections (its renderers' context). */
  feedConfig(feedId: string): SectionsConfig<ConfigSections>;
}

export function publicViewContext(deps: {
  registry: PluginRegistry;
  db: Knex;
  publicBaseUrl: string;
  now: () => Date;
  feedConfig: (feedId: string) => unknown;
}): PublicViewContext {
  return {
    db: deps.db,
    now: deps.now,
    origin: publicOrigin(deps.publicBaseUrl),
    // Catalog feeds only: core's own (feed health) has no public views.
    findFeed: (feedId) => deps.registry.catalogFeed(feedId),
    feed(feedId) {
      const feed = deps.registry.catalogFeed(feedId);
      if (!feed) throw new Errors.NotFound(`params/feedId: feed ${feedId} not found`);
      return feed;
    },
    // Set by core from the same validated tree the plugin's renderers get.
    feedConfig: (feedId) => deps.feedConfig(feedId) as SectionsConfig<ConfigSections>,
  };
}
