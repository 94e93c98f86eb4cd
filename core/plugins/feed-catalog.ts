import { feedCatalogOf, type FeedCatalogPort } from '../plugin-api/feed-presentation.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import type { MessageCatalog } from '../plugin-api/messages.ts';

/**
 * The installed feeds as people see them, resolved once at start from the
 * manifests and their config sections: what the catalog route, the pages
 * and every delivery target read (FeedCatalogPort).
 */
export function createFeedCatalog(
  feeds: readonly FeedPluginManifest[],
  sectionsOf: (pluginId: string) => Readonly<Record<string, unknown>>,
  messagesOf: (pluginId: string) => MessageCatalog | undefined = () => undefined,
): FeedCatalogPort {
  return feedCatalogOf(
    feeds.map((manifest) => ({
      messages: messagesOf(manifest.id),
      ...manifest.feed,
      presentation: manifest.presentation,
      urgentEventTypes: manifest.urgentEventTypes,
      timeZone: manifest.timeZone?.(sectionsOf(manifest.id) as never),
      hasCalendar: manifest.publicViews?.calendar !== undefined,
      hasMap: manifest.publicViews?.map !== undefined,
    })),
  );
}
