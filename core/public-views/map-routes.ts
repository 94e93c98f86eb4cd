import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { Errors } from '../errors.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import { outagesGeoJson } from '../places/index.ts';
import { NOT_MODIFIED, sendCacheable } from './conditional-get.ts';
import { FeedIdParams, type PublicViewContext } from './public-view-context.ts';

const GEOJSON = 'application/geo+json; charset=utf-8';

/**
 * GET /api/notification-feeds/{feedId}/outages.geojson: a feed's current
 * items that have a shape, as an RFC 7946 FeatureCollection, with an ETag
 * and open to any site (a city's own map may show them).
 */
export async function mapRoutes(app: FastifyInstance, options: { readonly context: PublicViewContext }) {
  const { context } = options;
  app.get<{ Params: Static<typeof FeedIdParams> }>(
    '/api/notification-feeds/:feedId/outages.geojson',
    {
      schema: {
        summary: "A feed's current outages with their shapes (GeoJSON)",
        description:
          'A FeatureCollection of the items the feed lists now that have a shape: each a Polygon or MultiPolygon with `id`, `areas`, `feeder`, `start`, `end`, `estimatedEnd`, `customersAffected` and `status`. ETag; `Access-Control-Allow-Origin: *`.',
        tags: ['feeds'],
        params: FeedIdParams,
        response: {
          200: { description: 'A GeoJSON FeatureCollection (RFC 7946).', content: { 'application/geo+json': { schema: { type: 'object' } } } },
          304: NOT_MODIFIED,
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const feed = context.feed(request.params.feedId);
      const view = feed.publicViews?.map;
      if (!view) throw new Errors.NotFound(`feed ${feed.feed.id} publishes no map`);
      const { features, lastModified } = await view.load({ db: context.db, now: context.now(), config: context.feedConfig(feed.feed.id) });
      reply.header('access-control-allow-origin', '*');
      const body = JSON.stringify(outagesGeoJson(feed.feed.id, features));
      return sendCacheable(request, reply, { body, contentType: GEOJSON, lastModified, cacheControl: 'public, max-age=15' });
    },
  );
}
