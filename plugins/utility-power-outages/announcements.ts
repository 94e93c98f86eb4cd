import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Errors, Type, type FeedPluginContext, type NotificationEvent, type Static } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import type { AnnouncementPayload } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID } from './renderers.ts';

const Terms = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const AnnouncementBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 3000 }),
    areas: Type.Optional(Terms),
    feeders: Type.Optional(Terms),
  },
  { additionalProperties: false, examples: [{ title: 'Storm warning', message: 'Expect outages tonight.', areas: ['Kandy'], feeders: ['F12'] }] },
);
const Result = Type.Object({
  matchedSubscriptionCount: Type.Integer(),
  deliveredCount: Type.Integer(),
  claimedCount: Type.Integer(),
  wasSystemDelivery: Type.Boolean(),
});

/** A ManualAnnouncement event: a fresh SourceKey, Fields feeders / areas (comma-joined), matched like any event. */
export function announcementEvent(body: Static<typeof AnnouncementBody>, sourceKey = `announcement-${randomUUID()}`): NotificationEvent {
  const payload: AnnouncementPayload = { title: body.title.trim(), message: body.message.trim(), areas: body.areas ?? [], feeders: body.feeders ?? [] };
  return {
    feedId: POWER_OUTAGES_FEED_ID,
    eventType: 'ManualAnnouncement',
    sourceKey,
    fields: { feeders: payload.feeders.join(','), areas: payload.areas.join(', '), title: payload.title, message: payload.message },
    sourcePayload: payload,
  };
}

/** POST /api/admin/announcements (admin JWT): 202 with the pipeline result. */
export function announcementRoutes(app: FastifyInstance, context: FeedPluginContext<typeof powerOutagesConfig>): void {
  app.post<{ Body: Static<typeof AnnouncementBody> }>(
    '/api/admin/announcements',
    // Admins only, checked before the body is parsed or validated.
    {
      onRequest: context.auth.adminOnly,
      schema: {
        summary: 'Announce something to power-outage subscribers',
        description:
          'A ManualAnnouncement event of utility.power-outages (Fields `feeders` and `areas`), matched like any event and delivered before the answer.',
        tags: ['admin'],
        body: AnnouncementBody,
        response: { 202: Result },
      },
    },
    async (request, reply) => {
      if (request.body.title.trim() === '' || request.body.message.trim() === '') {
        throw new Errors.InvalidField('body/title and body/message must not be blank');
      }
      const result = await context.pipeline.processNotificationEvents([announcementEvent(request.body)], { awaitDelivery: true });
      request.log.info({ ...result }, 'announcement sent');
      return reply.status(202).send(result);
    },
  );
}
