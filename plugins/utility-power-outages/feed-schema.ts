import { defineFeedAnswer, FeedCount, FeedDateTime, FeedGeometry, FeedText, Type } from '#plugin-api';
import type { PowerOutageItem } from './outage-types.ts';

/** One outage of GET {ExternalProvider__BaseUrl}/power-outages; fields not named here are dropped. */
export const PowerOutageItemSchema = Type.Object({
  id: FeedText({ minLength: 1, maxLength: 200 }),
  feeder: FeedText({ maxLength: 200 }),
  areas: Type.Array(FeedText({ maxLength: 200 }), { maxItems: 500 }),
  timeOff: FeedDateTime(),
  timeRestored: Type.Union([FeedDateTime(), Type.Null()]),
  cause: Type.Optional(Type.Union([FeedText({ maxLength: 1000 }), Type.Null()])),
  customersAffected: Type.Optional(Type.Union([FeedCount(), Type.Null()])),
  estimatedRestoration: Type.Optional(Type.Union([FeedDateTime(), Type.Null()])),
  // Where it is, when the utility knows: a GeoJSON Polygon or MultiPolygon (a bad one is dropped, the outage kept).
  geometry: Type.Optional(Type.Union([FeedGeometry(), Type.Null()])),
});

/** The answer lists its outages under `outages`, each checked alone (a bad one is left out, the rest go on). */
export const powerOutageAnswer = defineFeedAnswer({ list: 'outages', item: PowerOutageItemSchema, id: (item: PowerOutageItem) => item.id });
