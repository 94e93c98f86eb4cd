import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors, localeOfAcceptLanguage, pageOrError, textResponse, Type, type SubscriptionState } from '#plugin-api';
import type { EmailRuntime } from './email-runtime.ts';
import { linkPages, PAGE_HEADERS } from './link-pages.ts';
import { hashToken, isUnsubscribeToken } from './link-tokens.ts';
import { useVerificationToken, verificationTokenUsed } from './outbox-repository.ts';

const BASE = '/api/notification-subscriptions';
const Params = Type.Object({ publicId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false });
// The token is checked by the handler, so a missing one gets the same answer (and page) as a wrong one.
const Query = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
type LinkRequest = { Params: { publicId: string }; Querystring: { token?: string } };
// RFC 8058's form field; other fields (a form's own) are let through, any JSON that is not this shape is a 400.
const UnsubscribeBody = Type.Object(
  { 'List-Unsubscribe': Type.Optional(Type.String({ maxLength: 100 })) },
  { examples: [{ 'List-Unsubscribe': 'One-Click' }] },
);
const ONE_CLICK = 'One-Click';
const tags = ['email links'];
const refused = pageOrError('The link is bad or used up: a page for a browser (Accept: text/html), the JSON error otherwise.');
const linkSchema = (summary: string, description: string, page: string) => ({
  summary,
  description,
  tags,
  params: Params,
  querystring: Query,
  response: { 200: textResponse('text/html', page), 400: refused },
});

/** A person clicking a link gets a page; an API client (or a test without Accept) the usual JSON error. */
/** The pages in the subscription's language (the alerts' own), or the browser's when the link names none. */
const pagesFor = (request: FastifyRequest, subscription: SubscriptionState | undefined) =>
  linkPages(subscription?.language ?? localeOfAcceptLanguage(request.headers['accept-language']));

function refuse(request: FastifyRequest, reply: FastifyReply, message: string, html: () => string) {
  if (request.headers.accept?.includes('text/html')) return reply.status(400).headers(PAGE_HEADERS).send(html());
  throw new Errors.InvalidField(message);
}

/**
 * x-www-form-urlencoded (what mail providers send) and multipart/form-data
 * (RFC 8058's SHOULD), as flat name → value: @fastify/formbody and
 * @fastify/multipart (busboy), in this plugin's scope only, small (a
 * one-click body is one field), and no files.
 */
async function registerFormParsers(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit: 4096 });
  await app.register(multipart, { limits: { fields: 8, fieldNameSize: 100, fieldSize: 1024, files: 0, parts: 8 } });
}

/** A multipart body's fields (a file, a malformed or a too-large form: a 400 naming the body). */
async function multipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') throw new Error('a file');
      fields[part.fieldname] = part.value;
    }
  } catch {
    throw new Errors.InvalidField('body must be a multipart/form-data form of text fields, List-Unsubscribe=One-Click');
  }
  return fields;
}

/**
 * The links of the emails: verify (GET activates, once) and
 * unsubscribe (GET shows a confirmation page, POST — the RFC 8058 one-click
 * of mail providers, or the page's button — deactivates at once).
 */
export async function linkRoutes(app: FastifyInstance, runtime: EmailRuntime): Promise<void> {
  const { context } = runtime;
  await registerFormParsers(app);

  const emailSubscription = async (publicId: string): Promise<SubscriptionState | undefined> => {
    const subscription = await context.subscriptions.find(publicId);
    return subscription?.provider === 'Email' ? subscription : undefined;
  };
  const unsubscribable = async (publicId: string, token: string | undefined) => {
    const subscription = await emailSubscription(publicId);
    const valid = subscription !== undefined && token !== undefined && isUnsubscribeToken(await runtime.linkKey(), publicId, token);
    return valid ? subscription : undefined;
  };

  // changesState: a HEAD (a mail scanner checking the link) is answered without activating anything.
  const verifySchema = linkSchema(
    'Verify an email subscription (the link of the verification email)',
    'Activates the subscription once; the token is single-use (opened again while the subscription is active, it says so with a 200). A HEAD (a mail scanner) changes nothing.',
    'The subscription is active.',
  );
  app.get<LinkRequest>(`${BASE}/:publicId/verify`, { config: { changesState: true }, schema: verifySchema }, async (request, reply) => {
    const { token } = request.query;
    const subscription = await emailSubscription(request.params.publicId);
    const verified =
      subscription !== undefined &&
      token !== undefined &&
      (await context.db.transaction(async (trx) => {
        if (!(await useVerificationToken(trx, subscription.id, hashToken(token), context.now()))) return false;
        await context.subscriptions.setActive(subscription.id, true, trx);
        return true;
      }));
    if (!verified) {
      // People click twice and reopen tabs: a used link of alerts that are on says so, and changes nothing.
      if (subscription?.isActive && token !== undefined && (await verificationTokenUsed(context.db, subscription.id, hashToken(token)))) {
        return reply.headers(PAGE_HEADERS).send(pagesFor(request, subscription).alreadyVerified(subscription.displayName));
      }
      // In the browser's language: the subscription's would tell anyone with its public id which one it chose.
      return refuse(request, reply, 'query/token is invalid, expired or already used', pagesFor(request, undefined).badVerifyLink);
    }
    request.log.info({ subscription: subscription.publicId }, 'email address verified');
    return reply.headers(PAGE_HEADERS).send(pagesFor(request, subscription).verified(subscription.displayName));
  });

  const confirmSchema = linkSchema(
    'The unsubscribe link of an email: a confirmation page',
    "Changes nothing (mail scanners fetch links): the page's button posts the unsubscribe.",
    'A page with a button that unsubscribes.',
  );
  app.get<LinkRequest>(`${BASE}/:publicId/unsubscribe`, { schema: confirmSchema }, async (request, reply) => {
    const subscription = await unsubscribable(request.params.publicId, request.query.token);
    if (!subscription) return refuse(request, reply, 'query/token is invalid', pagesFor(request, undefined).badUnsubscribeLink);
    const action = `${BASE}/${encodeURIComponent(subscription.publicId)}/unsubscribe?token=${encodeURIComponent(request.query.token!)}`;
    return reply.headers(PAGE_HEADERS).send(pagesFor(request, subscription).unsubscribeConfirm(subscription.displayName, subscription.isActive, action));
  });

  app.post<LinkRequest & { Body: unknown }>(
    `${BASE}/:publicId/unsubscribe`,
    {
      // A multipart form is read before the body is validated, as a form or JSON body already is.
      preValidation: async (request) => {
        if (request.isMultipart()) request.body = await multipartFields(request);
      },
      schema: {
        ...linkSchema(
          "Unsubscribe an email subscription (RFC 8058 one-click, or the page's button)",
          'The body is `List-Unsubscribe=One-Click` (application/x-www-form-urlencoded or multipart/form-data, as mail providers send it).',
          'The subscription is stopped.',
        ),
        body: UnsubscribeBody,
      },
    },
    async (request, reply) => {
      const subscription = await unsubscribable(request.params.publicId, request.query.token);
      if (!subscription) return refuse(request, reply, 'query/token is invalid', pagesFor(request, undefined).badUnsubscribeLink);
      // The body may be a form or any JSON at all: only the string One-Click counts.
      const field = request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>)['List-Unsubscribe'] : undefined;
      if (typeof field !== 'string' || field.trim() !== ONE_CLICK) {
        throw new Errors.InvalidField('body must be List-Unsubscribe=One-Click (application/x-www-form-urlencoded)');
      }
      if (subscription.isActive || subscription.pendingVerification) await context.subscriptions.setActive(subscription.id, false);
      request.log.info({ subscription: subscription.publicId }, 'email subscription unsubscribed');
      return reply.headers(PAGE_HEADERS).send(pagesFor(request, subscription).unsubscribed(subscription.displayName));
    },
  );
}
