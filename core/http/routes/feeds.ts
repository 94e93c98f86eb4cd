import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILTERABLE_FIELDS, type NotificationFeedDefinition } from '../../plugin-api/feed-types.ts';

export const FeedDefinitionSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  eventTypes: Type.Array(Type.String()),
  filterableFields: Type.Array(Type.Union(FILTERABLE_FIELDS.map((field) => Type.Literal(field)))),
});

export async function feedRoutes(app: FastifyInstance, options: { catalog: { getAll(): NotificationFeedDefinition[] } }) {
  app.get('/api/notification-feeds', { schema: { response: { 200: Type.Array(FeedDefinitionSchema) } } }, async () => options.catalog.getAll());
}
