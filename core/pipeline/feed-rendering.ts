import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import { createTranslator, DEFAULT_LOCALE, type MessageCatalog, coreMessages } from '../i18n/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import { CATCH_UP_EVENT_TYPE } from './quiet-hours/catch-up-release.ts';
import { renderTestEvent, TEST_EVENT_TYPE } from './test-event.ts';
import { safeText } from './safe-text.ts';

/** The catalog of a feed that ships no messages: one, so its translator is made once. */
const NO_MESSAGES: MessageCatalog = new Map();

/** Renderings kept per (event, language, zone): a fan-out renders each pair once. */
const CACHE_SIZE = 2000;

/**
 * Renders events as people read them: in English in the feed's zone once
 * for the ledger (the hand-over), and again for a subscriber who chose
 * another language or zone (at delivery), through the feed's own pure
 * renderer with its own messages (`locales/` in its folder). Core's own
 * types (Test, CatchUp) are core's to render; a catch-up is written in its
 * subscriber's language when it is made.
 */
export class FeedRendering {
  readonly #registry: PluginRegistry;
  readonly #feedConfig: (feedId: string) => unknown;
  readonly #catalogs = new Map<string, MessageCatalog>();
  readonly #cache = new Map<string, RenderedNotification>();

  constructor(registry: PluginRegistry, feedConfig: (feedId: string) => unknown) {
    this.#registry = registry;
    this.#feedConfig = feedConfig;
    for (const plugin of registry.plugins) {
      if (plugin.manifest.kind === 'feed') this.#catalogs.set(plugin.manifest.feed.id, registry.messagesOf(plugin.manifest.id));
    }
  }

  /** The messages a feed's plugin ships (empty for a feed without any). */
  messagesOf(feedId: string): MessageCatalog {
    return this.#catalogs.get(feedId) ?? NO_MESSAGES;
  }

  /**
   * The event in `locale` (English by default), its times in `timeZone`
   * (the feed's by default), saying what the subscriber `missed`; text
   * from outside kept to its lines.
   */
  render(event: NotificationEvent, locale: string = DEFAULT_LOCALE, timeZone?: string, missed: readonly NotificationEvent[] = []): RenderedNotification {
    if (event.eventType === TEST_EVENT_TYPE) {
      // The feed's name in the subscriber's language, from the feed's own locales (`feed.displayName`).
      const name = createTranslator(this.messagesOf(event.feedId), locale)('feed.displayName');
      return safeText(renderTestEvent(event, createTranslator(coreMessages, locale), name === 'feed.displayName' ? undefined : name));
    }
    const rendered = this.#registry.rendererFor(event.feedId, event.eventType).render(event, {
      config: this.#feedConfig(event.feedId),
      locale,
      timeZone,
      t: createTranslator(this.messagesOf(event.feedId), locale),
      ...(missed.length > 0 ? { missed } : {}),
    });
    return safeText(rendered);
  }

  /**
   * What a subscriber reads of a stored event: the stored (English) one
   * unless they chose another language or zone, or missed earlier events
   * of its item; a catch-up as it was made.
   */
  forSubscriber(
    eventId: number,
    event: NotificationEvent,
    stored: RenderedNotification,
    preferences: SubscriberPreferences | null | undefined,
    missed: readonly NotificationEvent[] = [],
  ): RenderedNotification {
    const locale = preferences?.language ?? DEFAULT_LOCALE;
    const zone = preferences?.timeZone;
    if ((locale === DEFAULT_LOCALE && zone === undefined && missed.length === 0) || event.eventType === CATCH_UP_EVENT_TYPE) return stored;
    if (event.eventType !== TEST_EVENT_TYPE && !this.#registry.feed(event.feedId)) return stored;
    const key = `${eventId}\u0000${locale}\u0000${zone ?? ''}\u0000${missed.map((e) => `${e.eventType}:${e.sourceKey}`).join(',')}`;
    let rendered = this.#cache.get(key);
    if (!rendered) {
      try {
        rendered = this.render(event, locale, zone, missed);
      } catch {
        // A renderer that cannot write this one (a core feed's type): the stored English rendering.
        return stored;
      }
      if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(key, rendered);
    }
    return rendered;
  }
}
