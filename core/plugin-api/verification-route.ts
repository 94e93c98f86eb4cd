import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Knex } from 'knex';
import type { SubscriptionAccess } from './core-ports.ts';
import { Errors } from './errors.ts';
import { errorResponses } from './response-schemas.ts';
import Type, { type Static } from 'typebox';
import { MAX_CODE_TRIES } from './verification-code.ts';
import { codeRefusal, type VerificationStore } from './verification-store.ts';

/** What the route that takes a verification code needs to know of its target. */
export interface CodeRouteOptions {
  /** The target's provider: a subscription of another is a 400. */
  readonly provider: string;
  /** The path under `/api/notification-subscriptions/:publicId/` (`verify-code`). */
  readonly path: string;
  /** What the message with the code is, for the API's documentation (`its verification text`). */
  readonly message: string;
  /** The other way to confirm, for the documentation (`Replying YES to the text confirms too.`). */
  readonly alsoConfirms: string;
  /** What a subscription of this provider is called (`a text-message subscription`). */
  readonly kind: string;
  /** How to get a new code, when this one expired or was spent (`subscribe again for a new call`). */
  readonly again: string;
  /** What to do when no code was sent yet (`wait for the text`). */
  readonly wait: string;
}

const Verified = Type.Object({ publicId: Type.String(), isActive: Type.Boolean() });

/**
 * POST /api/notification-subscriptions/{publicId}/{path}: the 6-digit code
 * a verification message (a text, a call) gave, checked against the
 * target's `verificationStore`; the right one activates the subscription.
 * The subscription's manage token or its owner's bearer token; a wrong,
 * expired or spent code is a 400 naming `body/code`.
 */
export function verificationCodeRoute(
  app: FastifyInstance,
  context: { readonly db: Knex; now(): Date; readonly subscriptions: Pick<SubscriptionAccess, 'authorize' | 'setActive'> },
  store: VerificationStore,
  options: CodeRouteOptions,
): void {
  const CodeBody = Type.Object(
    { code: Type.String({ pattern: '^\\s*[0-9]{6}\\s*$', description: `The 6-digit code ${options.message} gave.` }) },
    { additionalProperties: false },
  );
  app.post<{ Params: { publicId: string }; Body: Static<typeof CodeBody> }>(
    `/api/notification-subscriptions/:publicId/${options.path}`,
    {
      schema: {
        summary: `Confirm a phone number with the code of ${options.message}`,
        description: `The subscription's manage token (X-Subscription-Token) or its owner's bearer token. ${MAX_CODE_TRIES} tries per code; a wrong, expired or spent code is a 400. ${options.alsoConfirms}`,
        tags: ['subscriptions'],
        params: Type.Object({ publicId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: CodeBody,
        response: { 200: Verified, ...errorResponses(400, 401, 403, 404) },
        // summary and tags are the API document's (@fastify/swagger's), which this folder does not load.
      } as FastifySchema,
    },
    async (request) => {
      const subscription = await context.subscriptions.authorize(request.params.publicId, request);
      if (subscription.provider !== options.provider) throw new Errors.InvalidField(`params/publicId: this subscription is not ${options.kind}`);
      if (subscription.isActive) return { publicId: subscription.publicId, isActive: true };
      const verdict = await store.check(context.db, subscription.id, request.body.code, context.now(), (trx) =>
        context.subscriptions.setActive(subscription.id, true, trx),
      );
      if (verdict.check === 'ok') return { publicId: subscription.publicId, isActive: true };
      throw codeRefusal({ check: verdict.check, triesLeft: verdict.triesLeft }, options.again, options.wait);
    },
  );
}
