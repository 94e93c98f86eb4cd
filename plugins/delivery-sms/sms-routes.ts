import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  Errors,
  errorResponses,
  normalisePhoneNumber,
  textResponse,
  Type,
  validTwilioSignature,
  verificationCodeRoute,
  type Static,
  type Translate,
} from '#plugin-api';
import { replyIntent, TWIML_EMPTY, twimlMessage } from './reply-keywords.ts';
import { replyWords } from './sms-text.ts';
import { cancelVerifications, firstTimeReply, optIn, optOut, recordReport, smsVerifications } from './sms-repository.ts';
import type { SmsRuntime } from './sms-runtime.ts';
import { shortenToFit } from './sms-segments.ts';
import { NOT_HANDED_OVER, UNSUBSCRIBED_AT_CARRIER } from './gateway-result.ts';

type Form = Record<string, string>;
const FORM_LIMIT = 16 * 1024;
const Signed = Type.Object({ 'x-twilio-signature': Type.Optional(Type.String()) });

/**
 * The gateway's callbacks and the code check:
 * - POST /api/sms/inbound: a reply (STOP, START, YES, HELP, STATUS…), answered in TwiML;
 * - POST /api/sms/status: a delivery report;
 * - POST /api/notification-subscriptions/{publicId}/verify-code: the code of the verification text.
 * Callbacks carry Twilio's signature over PublicBaseUrl + path and the sorted
 * form fields, keyed by the auth token; anything else is a 403 that changes nothing.
 */
export async function smsRoutes(app: FastifyInstance, runtime: SmsRuntime): Promise<void> {
  const { context } = runtime;
  const sms = context.config.Sms;
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  /** The help text: the operator's own (Sms__HelpText) as written, else the plugin's in the number's language. */
  const helpText = (t: Translate) => sms.HelpText ?? t('reply.help', { site: base });

  // Twilio posts forms; only these routes (this plugin's scope) read them.
  await app.register(formbody, { bodyLimit: FORM_LIMIT });

  const checkSignature = (request: FastifyRequest<{ Body: Form; Headers: Static<typeof Signed> }>) => {
    const fields = request.body && typeof request.body === 'object' ? request.body : {};
    // Signed by one of the gateways: each signs with its own auth token.
    const url = runtime.signedUrl(request.url);
    const gateway = runtime.gateways.find((one) => validTwilioSignature(one.authToken, request.headers['x-twilio-signature'], url, fields));
    if (!gateway) throw new Errors.Forbidden('X-Twilio-Signature is missing or does not match this request');
    return { fields, gateway };
  };

  const callbackSchema = (summary: string, description: string, fields: string[]) => ({
    summary,
    description,
    tags: ['callbacks'],
    headers: Signed,
    consumes: ['application/x-www-form-urlencoded'],
    body: Type.Object(Object.fromEntries(fields.map((name) => [name, Type.Optional(Type.String({ maxLength: 1600 }))])), {
      additionalProperties: Type.String(),
    }),
  });

  app.post<{ Body: Form; Headers: Static<typeof Signed> }>(
    '/api/sms/inbound',
    {
      schema: {
        ...callbackSchema(
          'A reply to a text (signed by the gateway)',
          'Keywords, case-insensitive: STOP (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT), START (UNSTOP), YES (confirms the urgent alerts this number was asked to confirm in the last week; with none, as START, and it confirms the number), HELP (INFO), STATUS, OUT (the outage the last text said was over is not: one report per subscription and outage). Anything else gets the help text. Answered with TwiML.',
          ['From', 'To', 'Body', 'MessageSid'],
        ),
        response: { 200: textResponse('text/xml', 'TwiML: the text sent back.'), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const { fields, gateway } = checkSignature(request);
      // Signed by a gateway's token, but meant for this service: that gateway's account, and its number when it sends from one.
      if (
        (fields.AccountSid !== undefined && fields.AccountSid !== gateway.accountSid) ||
        (gateway.from && !gateway.messagingServiceSid && fields.To !== undefined && fields.To !== gateway.from)
      ) {
        request.log.info('sms reply for another account or number: ignored');
        return reply.type('text/xml; charset=utf-8').send(TWIML_EMPTY);
      }
      // A reply is taken once: the same signed reply posted again (a replay, or the gateway retrying) changes nothing.
      const sid = (fields.MessageSid ?? '').slice(0, 64);
      if (sid === '') throw new Errors.InvalidField('body/MessageSid is required');
      if (!(await firstTimeReply(context.db, sid, context.now()))) {
        request.log.info('sms reply taken before (a repeat of its MessageSid): ignored');
        return reply.type('text/xml; charset=utf-8').send(TWIML_EMPTY);
      }
      const from = normalisePhoneNumber(fields.From ?? '', undefined);
      const answer = from === null ? helpText(replyWords(undefined)) : await answerReply(from, fields.Body ?? '');
      return reply.type('text/xml; charset=utf-8').send(twimlMessage(answer));
    },
  );

  async function answerReply(from: string, body: string): Promise<string> {
    const intent = replyIntent(body);
    const subscriptions = await context.subscriptions.byDestination('Sms', from);
    const ids = subscriptions.map((s) => s.id);
    // Answered in the language of the number's newest subscription (English for a number the service does not know).
    const t = replyWords(subscriptions.at(-1)?.language);
    switch (intent) {
      case 'stop':
        await context.db.transaction(async (trx) => {
          await context.subscriptions.setActive(ids, false, trx);
          await smsVerifications.forgetCodes(trx, ids);
          await cancelVerifications(trx, ids);
          // Until the number itself says START, no verification text goes to it, whoever subscribes it.
          await optOut(trx, from, context.now());
        });
        context.log.info({ subscriptions: ids.length }, 'sms STOP: subscriptions stopped');
        return t('reply.stopped');
      case 'yes': {
        const confirmed = await context.confirmations.confirmByReply('Sms', from);
        if (confirmed > 0) {
          context.log.info({ confirmed }, 'sms YES: alerts confirmed');
          return t('reply.confirmed');
        }
        return startAlerts(from, ids, t);
      }
      case 'start':
        return startAlerts(from, ids, t);
      case 'status': {
        const active = subscriptions.filter((s) => s.isActive).map((s) => s.id);
        if (active.length === 0) return t('reply.statusOff');
        const ongoing = await context.ongoing.forSubscriptions(active, subscriptions.at(-1)?.language);
        if (ongoing.length === 0) return t('reply.statusNone');
        return shortenToFit(ongoing.map((item) => `${item.feedName}: ${item.summary}`).join('\n'), 4);
      }
      case 'out': {
        if (ids.length === 0) return t('reply.noAlerts', { url: `${base}/subscribe` });
        const { recorded, already } = await context.stillOut.reportByReply(ids);
        context.log.info({ subscriptions: ids.length, recorded, already }, 'sms OUT: still-out reports');
        return recorded > 0 ? t('reply.outRecorded') : already > 0 ? t('reply.outAlready') : t('reply.outNothing');
      }
      case 'help':
        return helpText(t);
    }
  }

  /** START (or YES with nothing to confirm): the number's STOP no longer holds, and its subscriptions start. */
  async function startAlerts(from: string, ids: readonly number[], t: Translate): Promise<string> {
    await optIn(context.db, from);
    if (ids.length === 0) return t('reply.noAlerts', { url: `${base}/subscribe` });
    await context.db.transaction(async (trx) => {
      await context.subscriptions.setActive(ids, true, trx);
      await smsVerifications.forgetCodes(trx, ids);
    });
    context.log.info({ subscriptions: ids.length }, 'sms START: subscriptions active');
    return t('reply.started', { count: ids.length });
  }

  app.post<{ Body: Form; Headers: Static<typeof Signed> }>(
    '/api/sms/status',
    {
      schema: {
        ...callbackSchema(
          'A delivery report (signed by the gateway)',
          'Recorded on the delivery that sent the text; 21610 (the number opted out at its carrier) stops the subscription.',
          ['MessageSid', 'MessageStatus', 'ErrorCode'],
        ),
        response: { 200: textResponse('text/xml', 'An empty TwiML answer.'), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const { fields } = checkSignature(request);
      const sid = fields.MessageSid ?? '';
      const status = (fields.MessageStatus ?? '').slice(0, 32);
      const errorCode = /^\d{1,9}$/.test(fields.ErrorCode ?? '') ? Number(fields.ErrorCode) : null;
      if (sid === '' || status === '') throw new Errors.InvalidField('body/MessageSid and body/MessageStatus are required');
      const sent = await recordReport(context.db, sid, status, errorCode, context.now());
      if (sent === undefined) {
        request.log.info({ status }, 'sms delivery report for a text no delivery sent: ignored');
        return reply.type('text/xml; charset=utf-8').send(TWIML_EMPTY);
      }
      // The carrier could not hand it over: shown on the delivery, with its code.
      if (NOT_HANDED_OVER.has(status))
        await context.ledger.reportOutcome([{ ledgerId: sent.ledgerId, outcome: 'undelivered', code: errorCode === null ? null : String(errorCode) }]);
      // An escalation step's number is a carer's: its opt-out stops nothing of the subscriber's.
      if (errorCode === UNSUBSCRIBED_AT_CARRIER && !sent.escalationStep) await context.subscriptions.setActive(sent.subscriptionId, false);
      return reply.type('text/xml; charset=utf-8').send(TWIML_EMPTY);
    },
  );

  verificationCodeRoute(app, context, smsVerifications, {
    provider: 'Sms',
    path: 'verify-code',
    message: 'its verification text',
    alsoConfirms: 'Replying YES to the text confirms too.',
    kind: 'a text-message subscription',
    again: 'reply YES to the text, or subscribe again for a new code',
    wait: 'no code was sent yet; wait for the text',
  });
}
