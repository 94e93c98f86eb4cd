import { capPolygons } from '../places/index.ts';
import type { FastifyInstance } from 'fastify';
import Type, { type Static } from 'typebox';
import { Errors } from '../errors.ts';
import { compileFilter } from '../matching/index.ts';
import { fieldMatchOf } from '../plugins/filter-fields.ts';
import { errorResponses, textResponse } from '../plugin-api/response-schemas.ts';
import { ATOM_CONTENT_TYPE, renderAtom } from './atom-document.ts';
import { CAP_CONTENT_TYPE, renderCapAlert } from './cap-document.ts';
import { NOT_MODIFIED, sendCacheable } from './conditional-get.ts';
import { FeedIdParams, type PublicViewContext } from './public-view-context.ts';
import { earlierEventsOfItem, latestPublicEvents, publicEventById } from './public-event-store.ts';
import { filterFromQuery, queryOfFilter, ViewFilterQuery } from './view-query.ts';

/** Entries of an Atom feed, and rows read at most to find them through a filter. */
const ATOM_ENTRIES = 50;
const ATOM_SCAN_LIMIT = 5000;

const EventIdParams = Type.Object(
  // A bigint id: more digits could not be an id and would overflow the column type.
  { eventId: Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'The id of a stored event.' }) },
  { additionalProperties: false },
);

/** `utility.power-outages-42`: unique for the sender, free of the characters CAP forbids in identifiers. */
const capIdentifier = (feedId: string, eventId: number) => `${feedId}-${eventId}`;
export const capPath = (eventId: number) => `/api/notification-events/${eventId}/cap.xml`;

/** GET …/notification-feeds/{feedId}/atom.xml and …/notification-events/{eventId}/cap.xml. */
export async function alertRoutes(app: FastifyInstance, { context }: { context: PublicViewContext }) {
  app.get<{ Params: Static<typeof FeedIdParams>; Querystring: ViewFilterQuery }>(
    '/api/notification-feeds/:feedId/atom.xml',
    {
      schema: {
        summary: 'The latest alerts of a feed, as Atom',
        description: `Atom 1.0 of the feed's latest ${ATOM_ENTRIES} events, newest first, filtered like a subscription (\`areas\`, \`feeders\`); each entry links its CAP alert.`,
        tags: ['feeds'],
        params: FeedIdParams,
        querystring: ViewFilterQuery,
        response: { 200: textResponse('application/atom+xml', 'Atom 1.0.'), 304: NOT_MODIFIED, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const feed = context.feed(request.params.feedId);
      const alerts = feed.publicViews?.alerts;
      if (!alerts) throw new Errors.NotFound(`feed ${feed.feed.id} publishes no alerts`);
      const filter = filterFromQuery(request.query);
      const matches = compileFilter(filter, fieldMatchOf(feed.feed));
      const events = await latestPublicEvents(context.db, {
        feedId: feed.feed.id,
        eventTypes: Object.keys(alerts.profiles),
        matches,
        limit: ATOM_ENTRIES,
        scanLimit: ATOM_SCAN_LIMIT,
      });
      const body = renderAtom(events, {
        selfUrl: context.origin.url(`/api/notification-feeds/${feed.feed.id}/atom.xml${queryOfFilter(filter)}`),
        title: feed.feed.displayName,
        hostname: context.origin.hostname,
        capUrl: (id) => context.origin.url(capPath(id)),
      });
      return sendCacheable(request, reply, {
        body,
        contentType: ATOM_CONTENT_TYPE,
        lastModified: events[0]?.createdAt ?? null,
        cacheControl: 'public, max-age=60',
      });
    },
  );

  app.get<{ Params: Static<typeof EventIdParams> }>(
    '/api/notification-events/:eventId/cap.xml',
    {
      schema: {
        summary: 'One event as a CAP 1.2 alert',
        tags: ['feeds'],
        params: EventIdParams,
        response: { 200: textResponse('application/cap+xml', 'A CAP 1.2 alert.'), 304: NOT_MODIFIED, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const notFound = () => new Errors.NotFound(`params/eventId: no public alert ${request.params.eventId}`);
      const event = await publicEventById(context.db, Number(request.params.eventId));
      if (!event) throw notFound();
      // An event of a feed no longer installed has no profile either.
      const alerts = context.findFeed(event.feedId)?.publicViews?.alerts;
      const profile = alerts?.profiles[event.eventType];
      if (!alerts || !profile) throw notFound();
      const earlier = profile.msgType === 'Alert' ? [] : await earlierEventsOfItem(context.db, event, Object.keys(alerts.profiles));
      const body = renderCapAlert({
        identifier: capIdentifier(event.feedId, event.id),
        sender: context.origin.hostname,
        sent: event.createdAt,
        msgType: profile.msgType,
        references: earlier.map((ref) => ({ identifier: capIdentifier(event.feedId, ref.id), sent: ref.createdAt })),
        profile,
        content: alerts.content(event, { config: context.feedConfig(event.feedId) }),
        polygons: event.geometry ? capPolygons(event.geometry) : [],
      });
      return sendCacheable(request, reply, { body, contentType: CAP_CONTENT_TYPE, lastModified: event.createdAt, cacheControl: 'public, max-age=300' });
    },
  );
}
