import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import { Errors } from '../errors.ts';
import { manageTokenOf, type Caller } from '../http/caller-auth.ts';
import type { SubscriptionFilter } from '../matching/index.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import { BEARER, MANAGE_TOKEN } from '../http/openapi.ts';
import { errorResponses, textResponse } from '../plugin-api/response-schemas.ts';
import { PublicIdParams } from '../subscriptions/subscription-schemas.ts';
import type { SubscriptionService } from '../subscriptions/subscription-service.ts';
import { NOT_MODIFIED, sendCacheable } from './conditional-get.ts';
import { renderCalendar } from './ics-document.ts';
import { fieldMatchOf } from '../plugins/filter-fields.ts';
import { FeedIdParams, type PublicViewContext } from './public-view-context.ts';
import { filterFromQuery, ViewFilterQuery } from './view-query.ts';

const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';
/** What calendar apps are asked to wait between refreshes; the ETag makes a refresh cheap anyway. */
const REFRESH_SECONDS = 3600;
const calendarResponses = {
  200: textResponse('text/calendar', 'An iCalendar (RFC 5545) document.'),
  304: NOT_MODIFIED,
};

export interface CalendarRouteOptions {
  readonly context: PublicViewContext;
  readonly subscriptions: SubscriptionService;
  authenticate(request: FastifyRequest): Caller;
}

const SubscriptionCalendarQuery = Type.Object({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The manage token.' })) });

/** GET …/notification-feeds/{feedId}/calendar.ics and …/notification-subscriptions/{publicId}/calendar.ics. */
export async function calendarRoutes(app: FastifyInstance, options: CalendarRouteOptions) {
  const { context } = options;

  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    feed: FeedPluginManifest,
    filter: SubscriptionFilter,
    name: string,
    cacheControl: string,
  ) => {
    const view = feed.publicViews?.calendar;
    if (!view) throw new Errors.NotFound(`feed ${feed.feed.id} publishes no calendar`);
    const calendar = await view.load({ db: context.db, now: context.now(), config: context.feedConfig(feed.feed.id) });
    const body = renderCalendar(calendar, {
      hostname: context.origin.hostname,
      name,
      filter,
      matchOf: fieldMatchOf(feed.feed),
      refreshSeconds: REFRESH_SECONDS,
    });
    return sendCacheable(request, reply, { body, contentType: CALENDAR_CONTENT_TYPE, lastModified: calendar.lastModified, cacheControl });
  };

  app.get<{ Params: Static<typeof FeedIdParams>; Querystring: ViewFilterQuery }>(
    '/api/notification-feeds/:feedId/calendar.ics',
    {
      schema: {
        summary: "The calendar of a feed's planned items",
        description: 'iCalendar of the planned items from today on, filtered like a subscription (`areas`, `feeders`).',
        tags: ['feeds'],
        params: FeedIdParams,
        querystring: ViewFilterQuery,
        response: { ...calendarResponses, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const feed = context.feed(request.params.feedId);
      const filter = filterFromQuery(request.query);
      const narrowed = [...(filter.locationKeywords ?? []), ...(filter.feeders ?? [])];
      const name = narrowed.length > 0 ? `${feed.feed.displayName}: ${narrowed.join(', ')}` : feed.feed.displayName;
      return send(request, reply, feed, filter, name, 'public, max-age=60');
    },
  );

  app.get<{ Params: Static<typeof PublicIdParams>; Querystring: Static<typeof SubscriptionCalendarQuery> }>(
    '/api/notification-subscriptions/:publicId/calendar.ics',
    {
      schema: {
        summary: "The calendar of one subscription's filter",
        description: "The manage token as `token` in the query (what a calendar app can send), in the X-Subscription-Token header, or the owner's bearer JWT.",
        tags: ['subscriptions'],
        security: [MANAGE_TOKEN, BEARER],
        params: PublicIdParams,
        querystring: SubscriptionCalendarQuery,
        response: { ...calendarResponses, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const token = request.query.token ?? manageTokenOf(request);
      const caller = options.authenticate(request);
      if (token === undefined && caller.kind === 'anonymous')
        throw new Errors.Unauthorized('querystring/token: the manage token of the subscription is required');
      const subscription = await options.subscriptions.get(request.params.publicId, caller, token);
      const feed = context.feed(subscription.feed_id);
      // The calendar lists items, not events: the subscription's eventTypes do not narrow it.
      const { feeders, locationKeywords, keywords } = subscription.filter_json ?? {};
      const name = `${feed.feed.displayName}: ${subscription.display_name}`;
      return send(request, reply, feed, { feeders, locationKeywords, keywords }, name, 'private, max-age=60');
    },
  );
}
