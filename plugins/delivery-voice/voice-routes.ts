import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors, errorResponses, textResponse, Type, validTwilioSignature, verificationCodeRoute, type Static } from '#plugin-api';
import { NOT_HEARD } from './call-result.ts';
import { callWords } from './call-words.ts';
import { answerTwiml } from './twiml.ts';
import { callVerifications, updateCall } from './voice-repository.ts';
import type { VoiceRuntime } from './voice-runtime.ts';

type Form = Record<string, string>;
const FORM_LIMIT = 16 * 1024;
const Signed = Type.Object({ 'x-twilio-signature': Type.Optional(Type.String()) });
const TWIML = 'text/xml; charset=utf-8';

/**
 * The gateway's callbacks and the code check:
 * - POST /api/voice/status: a call's status (answered and ended, busy, no answer…);
 * - POST /api/voice/gather: the key pressed in a call (1 confirms);
 * - POST /api/notification-subscriptions/{publicId}/verify-call-code: the code the verification call read.
 * Callbacks carry Twilio's signature over PublicBaseUrl + path and the sorted
 * form fields, keyed by the auth token; anything else is a 403 that changes nothing.
 */
export async function voiceRoutes(app: FastifyInstance, runtime: VoiceRuntime): Promise<void> {
  const { context } = runtime;
  const voice = context.config.Voice;

  await app.register(formbody, { bodyLimit: FORM_LIMIT });

  const checked = (request: FastifyRequest<{ Body: Form; Headers: Static<typeof Signed> }>): Form => {
    const fields = request.body && typeof request.body === 'object' ? request.body : {};
    const signed =
      voice.AuthToken !== undefined && validTwilioSignature(voice.AuthToken, request.headers['x-twilio-signature'], runtime.signedUrl(request.url), fields);
    if (!signed || (fields.AccountSid !== undefined && fields.AccountSid !== voice.AccountSid)) {
      throw new Errors.Forbidden('X-Twilio-Signature is missing or does not match this request');
    }
    return fields;
  };
  const callbackSchema = (summary: string, description: string, fields: string[], answer: string) => ({
    summary,
    description,
    tags: ['callbacks'],
    headers: Signed,
    consumes: ['application/x-www-form-urlencoded'],
    body: Type.Object(Object.fromEntries(fields.map((name) => [name, Type.Optional(Type.String({ maxLength: 256 }))])), {
      additionalProperties: Type.String(),
    }),
    response: { 200: textResponse('text/xml', answer), ...errorResponses(400, 403) },
  });
  const callSid = (fields: Form) => {
    const sid = (fields.CallSid ?? '').slice(0, 64);
    if (sid === '') throw new Errors.InvalidField('body/CallSid is required');
    return sid;
  };

  app.post<{ Body: Form; Headers: Static<typeof Signed> }>(
    '/api/voice/status',
    {
      schema: callbackSchema(
        "A call's status (signed by the gateway)",
        'Recorded on the call; busy, no-answer, failed and canceled are shown on the delivery that placed it as not heard.',
        ['CallSid', 'CallStatus'],
        'An empty TwiML answer.',
      ),
    },
    async (request, reply) => {
      const fields = checked(request);
      const sid = callSid(fields);
      const status = (fields.CallStatus ?? '').slice(0, 32);
      if (status === '') throw new Errors.InvalidField('body/CallStatus is required');
      const call = await updateCall(context.db, sid, { status }, context.now());
      if (call === undefined) request.log.info({ status }, 'voice status for a call this service did not place: ignored');
      else if (call.ledgerId !== null && NOT_HEARD.has(status))
        await context.ledger.reportOutcome([{ ledgerId: call.ledgerId, outcome: 'undelivered', code: status }]);
      return reply.type(TWIML).send(answerTwiml());
    },
  );

  app.post<{ Body: Form; Headers: Static<typeof Signed> }>(
    '/api/voice/gather',
    {
      schema: callbackSchema(
        'A key pressed in a call (signed by the gateway)',
        '1 confirms: in a verification call the number (its subscription starts), in an alert that asks for it the alert (its escalation stops). Answered in TwiML: what the call says before it hangs up.',
        ['CallSid', 'Digits'],
        'TwiML: what the call says, then it hangs up.',
      ),
    },
    async (request, reply) => {
      const fields = checked(request);
      const sid = callSid(fields);
      const digits = (fields.Digits ?? '').slice(0, 8);
      const call = await updateCall(context.db, sid, { keyPressed: digits === '' ? undefined : digits }, context.now());
      if (call === undefined || digits !== '1') return reply.type(TWIML).send(answerTwiml());
      const words = callWords(runtime.voices, call.language);
      if (call.purpose === 'alert') {
        const confirmed = call.ledgerId !== null && (await context.confirmations.confirmDelivery(call.ledgerId, 'key'));
        request.log.info({ confirmed }, 'voice key 1 in an alert call');
        return reply.type(TWIML).send(answerTwiml(words.spoken(words.t('call.confirmed'))));
      }
      await context.db.transaction(async (trx) => {
        await context.subscriptions.setActive(call.subscriptionId, true, trx);
        await callVerifications.forgetCodes(trx, [call.subscriptionId]);
      });
      request.log.info('voice number confirmed by a key in its verification call');
      return reply.type(TWIML).send(answerTwiml(words.spoken(words.t('call.verified'))));
    },
  );

  verificationCodeRoute(app, context, callVerifications, {
    provider: 'Voice',
    path: 'verify-call-code',
    message: 'its verification call',
    alsoConfirms: 'Pressing 1 during the call confirms too.',
    kind: 'a voice call subscription',
    again: 'subscribe again for a new call',
    wait: 'no call was placed yet; wait for it',
  });
}
