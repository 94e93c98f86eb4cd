import { createHash, randomBytes } from 'node:crypto';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifySecureSession from '@fastify/secure-session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import Type, { type Static } from 'typebox';
import { Errors } from '../errors.ts';
import type { Caller } from '../http/caller-auth.ts';
import { errorResponses, textResponse } from '../plugin-api/response-schemas.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import { personPage, PERSON_PAGE_HEADERS } from '../plugin-api/person-page.ts';
import { matchCounts, totalOf, type FilterCache } from '../matching/index.ts';
import { filterFieldsOf, resolveFilterFields } from '../plugins/filter-fields.ts';
import type { NotificationPipelineService } from '../pipeline/notification-pipeline.ts';
import type { NotificationPipeline } from '../plugin-api/pipeline-types.ts';
import { estimatesFor, laneMinutes, readLanes } from '../delivery/index.ts';
import { requeueFailed } from '../ledger/index.ts';
import { circlesAround, MAX_PLACES } from '../places/index.ts';
import { PlaceSchema } from '../subscriptions/subscription-schemas.ts';
import { listFeedHealth } from '../feed-health/feed-health-repository.ts';
import { feedHealthView, type MonitoredFeed } from '../feed-health/feed-health-view.ts';
import { loadAsset, PAGE_HEADERS } from '../web/page-assets.ts';
import { audit, auditLog } from '../audit/audit-log.ts';
import { activeSubscriptions, backlogByProvider, deliveriesOfLastDay, latestEvents } from './console-repository.ts';
import { consolePeopleRoutes } from './console-people-routes.ts';
import type { Confirmations } from '../confirmation/confirmations.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { registerRoutes } from '../register/register-routes.ts';
import type { OidcSignIn, PendingSignIn } from './oidc-sign-in.ts';
import { holdsRole, oidcActor } from './role-policy.ts';
import { sessionEnd } from './session-policy.ts';

export interface ConsoleOptions {
  readonly db: Knex;
  readonly authenticate: (request: FastifyRequest) => Caller;
  readonly oidc: { readonly signIn: OidcSignIn; readonly adminRole: string } | null;
  /** Key material of the session cookie (Jwt__Secret, else Console__SessionSecret; random when neither: sessions end with the process and stay on one instance). */
  readonly sessionSecret: string | undefined;
  readonly sessionHours: number;
  readonly publicBaseUrl: string;
  readonly feeds: readonly MonitoredFeed[];
  readonly staleAfterPolls: number;
  readonly now: () => Date;
  readonly announcers: readonly FeedPluginManifest[];
  readonly filters: FilterCache;
  readonly pageSize: number;
  readonly pipeline: NotificationPipelineService;
  readonly handOver: NotificationPipeline;
  /** Wakes the lanes on every instance once a requeue commits. */
  readonly lanes: { notify(trx: Knex.Transaction): Promise<void> };
  readonly directProviders: readonly string[];
  /** Every installed provider ("Find a subscriber" looks destinations up among theirs). */
  readonly providers: readonly string[];
  /** The installed targets (a register's phones and emails are prepared by them). */
  readonly targets: ReadonlyMap<string, DeliveryTarget>;
  /** A feed's manifest by id (a register's feeders and places are checked against its filter). */
  readonly catalogFeed: (feedId: string) => FeedPluginManifest | undefined;
  /** Confirmations of urgent alerts: the "Not confirmed" list, and an operator's "reached by phone". */
  readonly confirmations: Pick<Confirmations, 'reached'>;
  /** Each lane's rate (0: none), by provider: the lanes panel and the estimates. */
  readonly rates: ReadonlyMap<string, number>;
}

declare module '@fastify/secure-session' {
  interface SessionData {
    /** Who is signed in: `token:<sub>` or `oidc:<sub>`. */
    actor: string;
    /** This sign-in's id (a sign-out ends it, whatever copy of the cookie is shown later). */
    sid: string;
    /** When this sign-in ends (epoch ms): SessionHours after it, or the admin token's own end when sooner. Never moved. */
    until: number;
    /** A sign-in with the identity provider under way. */
    pending: PendingSignIn | undefined;
    /** A user refused for want of the console role (the page says so). */
    denied: string;
  }
}

const SESSION_COOKIE = 'np_console';
const BROWSER_HALF = new URL('./web/', import.meta.url);
const tags = ['console'];
const Terms = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const AnnouncementBody = Type.Object(
  {
    feedId: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 3000 }),
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]{0,63}$' }), Terms, {
        description:
          "Values per filter field of the feed (its catalog's filterFields ids: locationKeywords and feeders for the utility feeds): whom it is about.",
      }),
    ),
    areas: Type.Optional(Terms),
    feeders: Type.Optional(Terms),
    places: Type.Optional(
      Type.Array(PlaceSchema, {
        maxItems: MAX_PLACES,
        description: 'The announcement is about these places: it reaches the subscribers whose places are within reach of their circles.',
      }),
    ),
  },
  { additionalProperties: false },
);
type Announcement = Static<typeof AnnouncementBody>;
const SendBody = Type.Object(
  { ...AnnouncementBody.properties, confirm: Type.Literal(true, { description: 'The operator saw the preview and confirms: nothing is sent without it.' }) },
  { additionalProperties: false },
);
const EventParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,18}$' }) }, { additionalProperties: false });

/** An event id from the path, exactly: ids past 2^53 (which a JS number would round to another id) name no event. */
function eventIdOf(id: string): number {
  const value = Number(id);
  if (!Number.isSafeInteger(value)) throw new Errors.NotFound(`no event has id ${id}`);
  return value;
}
const SignedIn = Type.Object({ signedIn: Type.Boolean() });
/** A view the console's page reads (its shape is the page's, not a public contract). */
const View = (description: string) => Type.Unknown({ description });
const htmlPage = (description: string) => textResponse('text/html', description);
const redirect = (description: string) => ({ description });

/** A 32-byte key for the session cookie's encryption, derived from a secret of the service's (random without one: sessions then end with the process). */
const sessionKey = (secret: string | undefined) =>
  secret ? createHash('sha256').update(`notification-pipeline console session\u0000${secret}`).digest() : randomBytes(32);

/**
 * The operator console: GET /console (a page like the subscribe page: this
 * service's own script, a strict CSP) and its API under /console/api/.
 * Sign-in with OpenID Connect (authorization code and PKCE) or with an
 * admin token, either way into the same encrypted session cookie
 * (HttpOnly, SameSite=Lax, Secure behind https, path /console); every
 * change needs the session's CSRF token in `x-csrf-token`; every action is
 * written to the audit log.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleOptions) {
  const secure = new URL(options.publicBaseUrl).protocol === 'https:';
  await app.register(fastifySecureSession, {
    key: sessionKey(options.sessionSecret),
    cookieName: SESSION_COOKIE,
    expiry: options.sessionHours * 3600,
    cookie: { path: '/console', httpOnly: true, sameSite: 'lax', secure },
  });
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/secure-session', getToken: (request) => request.headers['x-csrf-token'] as string | undefined });
  const { db } = options;
  // The console's browser half, beside this: its page, and its script served among the pages' (/web/), whose modules it imports.
  const page = loadAsset('console.html', BROWSER_HALF);
  const script = loadAsset('console.js', BROWSER_HALF);
  const traceScript = loadAsset('console-trace.js', BROWSER_HALF);

  /**
   * The signed-in actor, checked against the sign-in's own end (the
   * cookie's timestamp moves whenever the session is written, this does
   * not) and the signed-out sessions. Memoised per request.
   */
  const checked = new WeakMap<FastifyRequest, Promise<string | null>>();
  const currentActor = (request: FastifyRequest): Promise<string | null> => {
    let found = checked.get(request);
    if (!found) {
      found = (async () => {
        const actor = request.session.get('actor');
        const sid = request.session.get('sid');
        const until = request.session.get('until');
        if (!actor || !sid || typeof until !== 'number' || until <= options.now().getTime()) return null;
        const ended = await db('console_ended_sessions').where({ sid }).first('sid');
        return ended ? null : actor;
      })();
      checked.set(request, found);
    }
    return found;
  };
  const actorOf = async (request: FastifyRequest): Promise<string> => {
    const actor = await currentActor(request);
    if (!actor) throw new Errors.Unauthorized('sign in to the console first');
    return actor;
  };
  const signedIn = { onRequest: async (request: FastifyRequest) => void (await actorOf(request)) };
  const change = { onRequest: [signedIn.onRequest, app.csrfProtection] };
  const signIn = async (request: FastifyRequest, reply: FastifyReply, actor: string, via: string, token?: string) => {
    request.session.regenerate();
    request.session.set('actor', actor);
    request.session.set('sid', randomBytes(16).toString('base64url'));
    request.session.set('until', sessionEnd(options.now(), options.sessionHours, token));
    // The session's CSRF secret is made now, in the cookie the sign-in sets.
    await reply.generateCsrf();
    await audit(db, actor, 'sign-in', { via });
  };

  app.get(
    '/console',
    { schema: { summary: 'The operator console', tags, response: { 200: textResponse('text/html', 'The page.') } } },
    async (_request, reply) =>
      reply
        .headers({ ...PAGE_HEADERS, 'cache-control': 'no-store' })
        .type(page.contentType)
        .send(page.body),
  );
  app.get(
    '/web/console.js',
    { schema: { summary: "The console's script", tags, response: { 200: textResponse('text/javascript', 'The script.') } } },
    async (_request, reply) => reply.headers(PAGE_HEADERS).type(script.contentType).send(script.body),
  );
  app.get(
    '/web/console-trace.js',
    { schema: { summary: 'The console\'s "Find a subscriber"', tags, response: { 200: textResponse('text/javascript', 'The script.') } } },
    async (_request, reply) => reply.headers(PAGE_HEADERS).type(traceScript.contentType).send(traceScript.body),
  );

  const Me = Type.Object({
    signedIn: Type.Boolean(),
    actor: Type.Union([Type.String(), Type.Null()]),
    csrfToken: Type.Union([Type.String(), Type.Null()], { description: 'What every change sends as x-csrf-token.' }),
    oidc: Type.Boolean({ description: 'Whether sign-in with the identity provider is set up.' }),
    denied: Type.Union([Type.String(), Type.Null()], { description: 'A user just refused for want of the console role.' }),
  });
  app.get('/console/api/me', { schema: { summary: 'Who is signed in to the console', tags, response: { 200: Me } } }, async (request, reply) => {
    // It answers the session's CSRF token: no cache, shared or private, may keep it.
    reply.header('cache-control', 'no-store');
    const actor = (await currentActor(request)) ?? undefined;
    const denied = request.session.get('denied') as string | undefined;
    return {
      signedIn: actor !== undefined,
      actor: actor ?? null,
      csrfToken: actor ? await reply.generateCsrf() : null,
      oidc: options.oidc !== null,
      denied: denied ?? null,
    };
  });

  app.post<{ Body: { token: string } }>(
    '/console/api/session',
    {
      schema: {
        summary: 'Sign in with an admin token',
        description: 'The token `npm run token -- --admin --sub <name>` prints, exchanged for a console session.',
        tags,
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false }),
        response: { 200: SignedIn, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const token = request.body.token.trim();
      const caller = options.authenticate({ headers: { authorization: `Bearer ${token}` } } as FastifyRequest);
      if (caller.kind !== 'user') throw new Errors.Unauthorized('the token is not valid');
      if (!caller.admin) {
        await audit(db, `token:${caller.userId}`, 'sign-in refused', { reason: 'not an admin token' });
        throw new Errors.Forbidden('this token is not an admin token');
      }
      await signIn(request, reply, `token:${caller.userId}`, 'admin token', token);
      return { signedIn: true };
    },
  );

  app.post(
    '/console/api/logout',
    { ...change, schema: { summary: 'Sign out of the console', tags, response: { 200: SignedIn, ...errorResponses(401, 403) } } },
    async (request) => {
      const actor = await actorOf(request);
      await db.transaction(async (trx) => {
        // Ended here, not only in this browser: a copy of the cookie signs nobody in either.
        await trx('console_ended_sessions')
          .insert({ sid: request.session.get('sid') })
          .onConflict('sid')
          .ignore();
        await audit(trx, actor, 'sign-out');
      });
      request.session.delete();
      return { signedIn: false };
    },
  );

  const loginSchema = {
    summary: "Sign in with the organisation's identity provider",
    tags,
    response: { 303: redirect('To the identity provider.'), 404: errorResponses(404)[404], 502: htmlPage('The identity provider did not answer.') },
  };
  app.get('/console/login', { schema: loginSchema }, async (request, reply) => {
    if (!options.oidc) throw new Errors.NotFound('sign-in with an identity provider is not set up (Console__Oidc__Issuer)');
    let started: Awaited<ReturnType<OidcSignIn['start']>>;
    try {
      started = await options.oidc.signIn.start();
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'the identity provider did not answer');
      return refusal(reply, 502, 'The identity provider did not answer. Try again in a moment, or sign in with an admin token.');
    }
    request.session.set('pending', started.pending);
    return reply.redirect(started.url, 303);
  });

  const callbackSchema = {
    summary: 'Where the identity provider sends the browser back',
    tags,
    response: {
      303: redirect('Signed in: to the console.'),
      400: htmlPage('The sign-in did not check out.'),
      403: htmlPage('The user does not hold the console role.'),
    },
  };
  app.get('/console/callback', { schema: callbackSchema }, async (request, reply) => {
    const pending = request.session.get('pending') as PendingSignIn | undefined;
    if (!options.oidc || !pending) return refusal(reply, 400, 'This sign-in link is not one the console started. Start again from the console.');
    request.session.set('pending', undefined);
    let claims: Record<string, unknown>;
    try {
      claims = await options.oidc.signIn.finish(new URL(request.url, options.publicBaseUrl), pending);
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'console sign-in failed');
      return refusal(reply, 400, "The identity provider's answer did not check out. Start again from the console.");
    }
    const actor = oidcActor(claims);
    if (!holdsRole(claims, options.oidc.adminRole)) {
      await audit(db, actor, 'sign-in refused', { reason: 'no console role' });
      // Whoever was signed in before in this browser is not any more.
      request.session.regenerate();
      request.session.set('denied', actor);
      return refusal(
        reply,
        403,
        `You are signed in as ${actor.slice(5)}, but your account does not hold the console role (${options.oidc.adminRole}). Ask an administrator of your organisation for it. Nothing of the console is shown.`,
      );
    }
    await signIn(request, reply, actor, 'openid connect');
    return reply.redirect('/console', 303);
  });

  const overviewSchema = {
    summary: 'Feeds, lanes, backlog, deliveries of the last day and per minute of the last hour, subscriptions',
    tags,
    response: { 200: View('{ feeds, lanes, perMinute, backlog, lastDay, subscriptions }'), ...errorResponses(401) },
  };
  app.get('/console/api/overview', { ...signedIn, schema: overviewSchema }, async () => {
    const records = await listFeedHealth(db);
    const at = { now: options.now(), staleAfterPolls: options.staleAfterPolls };
    const [backlog, lastDay, subscriptions, lanes, minutes] = await Promise.all([
      backlogByProvider(db),
      deliveriesOfLastDay(db),
      activeSubscriptions(db),
      readLanes(db, options.rates),
      laneMinutes(db, 60),
    ]);
    const perMinute = minutes.map((m) => ({ provider: m.provider, minute: m.minute.toISOString(), delivered: m.delivered, failed: m.failed }));
    return { feeds: options.feeds.map((feed) => feedHealthView(feed, records.get(feed.id), at)), lanes, perMinute, backlog, lastDay, subscriptions };
  });

  const eventsSchema = {
    summary: 'The latest events with their deliveries counted, and the held ones',
    tags,
    querystring: Type.Object({ feed: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    response: { 200: View('{ events, held }'), ...errorResponses(400, 401) },
  };
  app.get<{ Querystring: { feed?: string } }>('/console/api/events', { ...signedIn, schema: eventsSchema }, async (request) => {
    const [events, held, lanes] = await Promise.all([
      latestEvents(db, { feedId: request.query.feed || undefined, limit: 50 }),
      latestEvents(db, { heldOnly: true, limit: 100 }),
      readLanes(db, options.rates),
    ]);
    // How long each lane would take to reach a held event's subscribers, were it released now.
    return { events, held: held.map((event) => ({ ...event, estimatedSeconds: estimatesFor(new Map(Object.entries(event.hold?.byProvider ?? {})), lanes) })) };
  });

  app.post<{ Params: Static<typeof EventParams> }>(
    '/console/api/events/:id/requeue',
    {
      ...change,
      schema: {
        summary: "Requeue an event's failed deliveries",
        tags,
        params: EventParams,
        response: { 200: Type.Object({ requeued: Type.Integer() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const requeued = await db.transaction(async (trx) => {
        const eventId = eventIdOf(request.params.id);
        const done = await requeueFailed(trx, { providers: options.directProviders, eventId });
        if (done.length > 0) await options.lanes.notify(trx);
        await audit(trx, actor, 'requeue failed deliveries', { eventId, requeued: done.length });
        return done;
      });
      return { requeued: requeued.length };
    },
  );

  for (const decision of ['release', 'discard'] as const) {
    app.post<{ Params: Static<typeof EventParams> }>(
      `/console/api/events/:id/${decision}`,
      {
        ...change,
        schema: {
          summary: `${decision === 'release' ? 'Release' : 'Discard'} a held event`,
          tags,
          params: EventParams,
          response: { 200: View(`{ ${decision === 'release' ? 'released' : 'discarded'}: id }`), ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const actor = await actorOf(request);
        const id = eventIdOf(request.params.id);
        // Recorded in the decision's own transaction: no release or discard without its line in the log.
        const record = (trx: Knex.Transaction) => audit(trx, actor, decision === 'release' ? 'release held event' : 'discard held event', { eventId: id });
        const done = decision === 'release' ? await options.pipeline.releaseHeld(id, actor, record) : await options.pipeline.discardHeld(id, actor, record);
        if (!done) throw new Errors.Conflict(`event ${id} is not held (released or discarded already, or unknown)`);
        return { [decision === 'release' ? 'released' : 'discarded']: request.params.id };
      },
    );
  }

  const announcementOf = (body: Announcement) => {
    const feed = options.announcers.find((manifest) => manifest.feed.id === body.feedId);
    if (!feed)
      throw new Errors.InvalidField(
        `body/feedId: ${body.feedId} takes no announcements (${options.announcers.map((m) => m.feed.id).join(', ') || 'none does'})`,
      );
    if (body.title.trim() === '' || body.message.trim() === '') throw new Errors.InvalidField('body/title and body/message must not be blank');
    const declared = new Set(filterFieldsOf(feed.feed).map((field) => field.id));
    const unknown = Object.keys(body.fields ?? {}).find((id) => !declared.has(id));
    if (unknown !== undefined)
      throw new Errors.InvalidField(`body/fields/${unknown}: ${feed.feed.id} has no filter field ${unknown} (it has ${[...declared].join(', ') || 'none'})`);
    const fields = body.fields ?? {};
    // areas and feeders as announcements always had them (a feed written before fields reads those), fields by id besides.
    const areas = body.areas ?? fields.locationKeywords ?? [];
    const feeders = body.feeders ?? fields.feeders ?? [];
    const about = { ...fields, ...(areas.length ? { locationKeywords: areas } : {}), ...(feeders.length ? { feeders } : {}) };
    const event = feed.announcement!({ title: body.title.trim(), message: body.message.trim(), areas, feeders, fields: about });
    // Places make the announcement a shape: the circles around them (subscribers' places within reach match it).
    const geometry = circlesAround(body.places ?? []);
    // Whom it is about, under each field's label in the feed's words (`Areas: Galle`), for the audit log.
    const labels = new Map(resolveFilterFields(filterFieldsOf(feed.feed)).map((field) => [field.id, field.label]));
    const aboutInWords = Object.fromEntries(Object.entries(about).map(([id, values]) => [labels.get(id) ?? id, values.join(', ')]));
    return { event: geometry ? { ...event, geometry } : event, aboutInWords };
  };

  const AnnouncerField = Type.Object({ id: Type.String(), label: Type.String(), hint: Type.String(), example: Type.String() });
  app.get(
    '/console/api/announcers',
    {
      ...signedIn,
      schema: {
        summary: 'The feeds that take announcements, each with its filter fields in its own words',
        tags,
        response: {
          200: Type.Array(Type.Object({ id: Type.String(), displayName: Type.String(), filterFields: Type.Array(AnnouncerField) })),
          ...errorResponses(401),
        },
      },
    },
    async () =>
      options.announcers.map((m) => ({
        id: m.feed.id,
        displayName: m.feed.displayName,
        filterFields: resolveFilterFields(filterFieldsOf(m.feed)).map(({ id, label, hint, example }) => ({ id, label, hint, example })),
      })),
  );

  const previewSchema = {
    summary: 'Whom an announcement would reach, by provider, and how long each lane would take (sends nothing)',
    tags,
    body: AnnouncementBody,
    response: {
      200: Type.Object({
        subscriptions: Type.Integer(),
        byProvider: Type.Record(Type.String(), Type.Integer()),
        estimatedSeconds: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()]), {
          description:
            "Per provider: seconds until the last of its recipients is reached, at the lane's rate after its backlog (without a rate: at its recent pace; null when it has none yet).",
        }),
      }),
      ...errorResponses(400, 401, 403),
    },
  };
  app.post<{ Body: Announcement }>('/console/api/announcements/preview', { ...change, schema: previewSchema }, async (request) => {
    const { event } = announcementOf(request.body);
    const [[byProvider], lanes] = await Promise.all([matchCounts(db, options.filters, event.feedId, [event], options.pageSize), readLanes(db, options.rates)]);
    return { subscriptions: totalOf(byProvider!), byProvider: Object.fromEntries([...byProvider!].sort()), estimatedSeconds: estimatesFor(byProvider!, lanes) };
  });

  app.post<{ Body: Static<typeof SendBody> }>(
    '/console/api/announcements',
    {
      ...change,
      schema: {
        summary: 'Send an announcement the operator confirmed',
        tags,
        body: SendBody,
        response: { 202: View("The pipeline's result: matchedSubscriptionCount, deliveredCount, claimedCount."), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      const { confirm: _confirmed, ...body } = request.body;
      const { event, aboutInWords } = announcementOf(body);
      // Written before anything goes out: an announcement that was sent always has its line, whatever happens during delivery.
      await audit(db, actor, 'announcement sent', { feedId: body.feedId, title: body.title.trim(), ...aboutInWords });
      const result = await options.handOver.processNotificationEvents([event], { awaitDelivery: true });
      return reply.status(202).send(result);
    },
  );

  app.get(
    '/console/api/audit',
    {
      ...signedIn,
      schema: {
        summary: "The console's audit log, newest first",
        tags,
        response: { 200: View('{ entries: [{ id, at, actor, action, detail }] }'), ...errorResponses(401) },
      },
    },
    async () => ({ entries: await auditLog(db, 100) }),
  );
  await registerRoutes(app, { db, targets: options.targets, catalogFeed: options.catalogFeed, now: options.now, actorOf, change });
  await consolePeopleRoutes(app, {
    db,
    filters: options.filters,
    providers: options.providers,
    confirmations: options.confirmations,
    actorOf,
    signedIn,
    change,
  });
}

function refusal(reply: FastifyReply, status: number, text: string) {
  return reply
    .status(status)
    .headers(PERSON_PAGE_HEADERS)
    .send(personPage({ title: status === 403 ? 'Not allowed' : 'Sign-in did not work', tone: 'bad', paragraphs: [text] }));
}
