import { defineFeedAnswer, FeedDate, FeedGeometry, FeedText, Type } from '#plugin-api';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

/** One planned outage of GET {ExternalProvider__BaseUrl}/scheduled-outages; fields not named here are dropped. */
export const ScheduledOutageItemSchema = Type.Object({
  id: FeedText({ minLength: 1, maxLength: 200 }),
  date: FeedDate(),
  start: Time,
  end: Time,
  feeder: FeedText({ maxLength: 200 }),
  areas: Type.Array(FeedText({ maxLength: 200 }), { maxItems: 500 }),
  reason: Type.Optional(Type.Union([FeedText({ maxLength: 1000 }), Type.Null()])),
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('cancelled')]),
  // Where the work is, when the utility knows (a bad shape is dropped, the outage kept).
  geometry: Type.Optional(Type.Union([FeedGeometry(), Type.Null()])),
});

/** The answer lists its outages under `outages`, each checked alone (a bad one is left out, the rest go on). */
export const scheduledOutageAnswer = defineFeedAnswer({ list: 'outages', item: ScheduledOutageItemSchema, id: (item: ScheduledOutageItem) => item.id });
