import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILTERABLE_FIELDS, type FilterableField, type NotificationFeedDefinition } from '../../plugin-api/feed-types.ts';
import { FILTER_FIELD_OF } from '../../pipeline/matching/subscription-filter.ts';
import type { FeedCatalogPort } from '../../plugin-api/feed-presentation.ts';

const Field = Type.Union(FILTERABLE_FIELDS.map((field) => Type.Literal(field)));

export const FeedDefinitionSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  eventTypes: Type.Array(Type.String()),
  filterableFields: Type.Array(Field),
  filterProperties: Type.Object(
    { feeders: Type.Optional(Field), locationKeywords: Type.Optional(Field), keywords: Type.Optional(Field) },
    { description: 'Which property of a create request\'s filter filters by which of filterableFields (eventTypes always applies).' },
  ),
  eventTypeDetails: Type.Array(
    Type.Object({ type: Type.String(), label: Type.String(), hint: Type.String() }),
    { description: 'Each event type for people, in the order of eventTypes: a label (types that share one are one choice) and a hint of when it comes.' },
  ),
  urgentEventTypes: Type.Array(Type.String(), { description: 'Event types delivered at once even inside a subscriber\'s quiet hours.' }),
  timeZone: Type.String({ description: 'The IANA zone the feed\'s times are in: pages and messages show times in it, with its name.' }),
  hasCalendar: Type.Boolean({ description: 'Whether the feed publishes calendar.ics (and each subscription of it one of its own).' }),
});

/** The filter properties of a create request that a feed can take, each with the catalog field it filters: `{ feeders: 'Feeder' }`. */
function filterPropertiesOf(feed: NotificationFeedDefinition): Partial<Record<string, FilterableField>> {
  return Object.fromEntries(
    Object.entries(FILTER_FIELD_OF).filter(([, field]) => field !== null && feed.filterableFields.includes(field)),
  ) as Partial<Record<string, FilterableField>>;
}

export async function feedRoutes(app: FastifyInstance, options: { catalog: { getAll(): NotificationFeedDefinition[] }; feeds: FeedCatalogPort }) {
  const schema = {
    summary: 'The catalog of feeds',
    description: 'Every installed feed: its event types (and what each means for people), the fields it can be filtered by, the filter properties of a create request it takes, its time zone and whether it has a calendar.',
    tags: ['feeds'],
    response: { 200: Type.Array(FeedDefinitionSchema) },
  };
  app.get('/api/notification-feeds', { schema }, async () =>
    options.catalog.getAll().map((feed) => {
      const info = options.feeds.get(feed.id)!;
      return {
        ...feed,
        filterProperties: filterPropertiesOf(feed),
        eventTypeDetails: info.eventTypes.map(({ type, label, hint }) => ({ type, label, hint })),
        urgentEventTypes: info.urgentEventTypes,
        timeZone: info.timeZone,
        hasCalendar: info.hasCalendar,
      };
    }),
  );
}
