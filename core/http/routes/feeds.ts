import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILTERABLE_FIELDS, type FilterableField, type NotificationFeedDefinition } from '../../plugin-api/feed-types.ts';
import { FILTER_FIELD_OF } from '../../pipeline/subscription-filter.ts';

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
});

/** The filter properties of a create request that a feed can take, each with the catalog field it filters: `{ feeders: 'Feeder' }`. */
function filterPropertiesOf(feed: NotificationFeedDefinition): Partial<Record<string, FilterableField>> {
  return Object.fromEntries(
    Object.entries(FILTER_FIELD_OF).filter(([, field]) => field !== null && feed.filterableFields.includes(field)),
  ) as Partial<Record<string, FilterableField>>;
}

export async function feedRoutes(app: FastifyInstance, options: { catalog: { getAll(): NotificationFeedDefinition[] } }) {
  const schema = {
    summary: 'The catalog of feeds',
    description: 'Every installed feed: its event types, the fields it can be filtered by, and the filter properties of a create request it takes.',
    tags: ['feeds'],
    response: { 200: Type.Array(FeedDefinitionSchema) },
  };
  app.get('/api/notification-feeds', { schema }, async () =>
    options.catalog.getAll().map((feed) => ({ ...feed, filterProperties: filterPropertiesOf(feed) })),
  );
}
