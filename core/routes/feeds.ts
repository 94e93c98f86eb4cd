import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILTER_MATCHES, FILTERABLE_FIELDS, type FilterableField, type NotificationFeedDefinition } from '../plugin-api/feed-types.ts';
import { catalogFieldsOf, filterFieldsOf, isLegacyFilterId, LEGACY_FILTER_FIELDS, resolveFilterFields } from '../plugins/filter-fields.ts';
import type { FeedCatalogPort } from '../plugin-api/feed-presentation.ts';
import { createTranslator, LOCALES, type MessageCatalog } from '../i18n/index.ts';
import type { PluginRegistry } from '../plugins/registry.ts';

const Field = Type.Union(FILTERABLE_FIELDS.map((field) => Type.Literal(field)));

export const FeedDefinitionSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  eventTypes: Type.Array(Type.String()),
  filterFields: Type.Array(
    Type.Object({
      id: Type.String(),
      property: Type.String({
        description:
          'Where its values go in a filter: `feeders`, `locationKeywords` and `keywords` are properties of their own; any other field is `fields.<id>`.',
      }),
      label: Type.String(),
      hint: Type.String(),
      example: Type.String(),
      match: Type.Union(
        FILTER_MATCHES.map((match) => Type.Literal(match)),
        { description: "`equals`: one of the event's values is one of these; `contains`: the event's text holds one of these." },
      ),
    }),
    { description: 'The fields the feed is filtered by, in its own words and in the language asked for (`?language=`), in its order.' },
  ),
  filterableFields: Type.Array(Field, {
    description: 'Which of the three fields core knew first (Feeder, Area, Keywords) are among filterFields: kept for older clients.',
  }),
  filterProperties: Type.Object(
    { feeders: Type.Optional(Field), locationKeywords: Type.Optional(Field), keywords: Type.Optional(Field) },
    { description: "Which property of a create request's filter filters by which of filterableFields (eventTypes always applies): kept for older clients." },
  ),
  eventTypeDetails: Type.Array(Type.Object({ type: Type.String(), label: Type.String(), hint: Type.String() }), {
    description: 'Each event type for people, in the order of eventTypes: a label (types that share one are one choice) and a hint of when it comes.',
  }),
  urgentEventTypes: Type.Array(Type.String(), { description: "Event types delivered at once even inside a subscriber's quiet hours." }),
  timeZone: Type.String({ description: "The IANA zone the feed's times are in: pages and messages show times in it, with its name." }),
  hasCalendar: Type.Boolean({ description: 'Whether the feed publishes calendar.ics (and each subscription of it one of its own).' }),
  hasMap: Type.Boolean({ description: "Whether the feed publishes its items' shapes (outages.geojson, the public map at /outages)." }),
  watched: Type.Boolean({
    description:
      'Whether the service polls the feed now. A subscription to a feed it does not poll (switched off in its settings) is kept, and gets alerts once an operator switches it on.',
  }),
});

/** The older filter properties of a feed's fields, each with the catalog field it filters: `{ feeders: 'Feeder' }`. */
function filterPropertiesOf(feed: NotificationFeedDefinition): Partial<Record<string, FilterableField>> {
  return Object.fromEntries(filterFieldsOf(feed).flatMap((field) => (isLegacyFilterId(field.id) ? [[field.id, LEGACY_FILTER_FIELDS[field.id].field]] : [])));
}

const FeedsQuery = Type.Object(
  {
    language: Type.Optional(
      Type.Union(
        LOCALES.map((locale) => Type.Literal(locale.code)),
        { description: "The language of the feeds' words: names, event types and filter fields (English by default)." },
      ),
    ),
  },
  { additionalProperties: false },
);

export async function feedRoutes(
  app: FastifyInstance,
  options: { catalog: Pick<PluginRegistry, 'getAll' | 'plugins' | 'messagesOf'>; feeds: FeedCatalogPort; watched: (feedId: string) => boolean },
) {
  // Each feed's own words for its filter fields (filter.<id>.label, …) come from its locales.
  const messages = new Map<string, MessageCatalog>();
  for (const plugin of options.catalog.plugins) {
    if (plugin.manifest.kind === 'feed') messages.set(plugin.manifest.feed.id, options.catalog.messagesOf(plugin.manifest.id));
  }
  const schema = {
    summary: 'The catalog of feeds',
    description:
      'Every installed feed: its event types (and what each means for people), the fields it is filtered by in its own words, its time zone and whether it has a calendar and a map.',
    tags: ['feeds'],
    querystring: FeedsQuery,
    response: { 200: Type.Array(FeedDefinitionSchema) },
  };
  app.get<{ Querystring: { language?: string } }>('/api/notification-feeds', { schema }, async (request) =>
    options.catalog.getAll().map((feed) => {
      const info = options.feeds.get(feed.id, request.query.language)!;
      const own = messages.get(feed.id);
      const fields = filterFieldsOf(feed);
      return {
        id: feed.id,
        displayName: info.displayName,
        eventTypes: feed.eventTypes,
        filterFields: resolveFilterFields(fields, own ? createTranslator(own, request.query.language) : undefined),
        filterableFields: catalogFieldsOf(fields),
        filterProperties: filterPropertiesOf(feed),
        eventTypeDetails: info.eventTypes.map(({ type, label, hint }) => ({ type, label, hint })),
        urgentEventTypes: info.urgentEventTypes,
        timeZone: info.timeZone,
        hasCalendar: info.hasCalendar,
        hasMap: info.hasMap,
        watched: options.watched(feed.id),
      };
    }),
  );
}
