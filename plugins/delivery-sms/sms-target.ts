import { Errors, subscriberNumber, type DeliveryOutcome, type DeliveryTarget } from '#plugin-api';
import { batchAbort } from './gateway-client.ts';
import { judgeGatewayResult } from './gateway-result.ts';
import { missingGateway, type SmsRuntime } from './sms-runtime.ts';
import { queueVerifications, recordSentMessages } from './sms-repository.ts';
import { notificationText } from './sms-text.ts';

/**
 * The Sms delivery target: a direct target. Core claims the deliveries and
 * hands them over after the claim commits; each goes to the gateway as one
 * text (pooled connections), its sid is kept for the delivery reports, and
 * a number that opted out at its carrier (21610) stops its subscription.
 * A new subscription starts inactive with a verification text queued.
 */
export function createSmsTarget(runtime: SmsRuntime): DeliveryTarget {
  const { context } = runtime;
  const sms = context.config.Sms;
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  const region = sms.DefaultRegion;
  const numberHint = region ? `+94771234567, or a national number of ${region}` : 'in international form, like +94771234567';

  return {
    provider: 'Sms',
    startsActive: false,
    // People answer texts: a restoration asks them to reply OUT, not to open a link.
    answersByReply: true,

    prepareDestination(requested) {
      const checked = requested === undefined ? ({ refused: 'invalid' } as const) : subscriberNumber(requested, region);
      if ('number' in checked) return checked.number;
      if (checked.refused === 'not mobile') {
        throw new Errors.InvalidField(`body/delivery/destination must be a mobile phone number: this one is a ${checked.kind} number, which cannot take texts`);
      }
      throw new Errors.InvalidField(`body/delivery/destination must be a mobile phone number (${numberHint})`);
    },

    // A text to a carer's number when an alert goes unconfirmed: without the subscriber's manage link.
    takesEscalationSteps: true,
    verificationKey: (destination) => destination,
    unavailableReason: () => missingGateway(context.config),
    // One text per connection at a time (no pipelining): the lane hands the gateway no more than it takes at once.
    concurrency: () => sms.Connections,
    subscribeUrl: () => null,
    subscribeUrlUnavailableReason: () => 'Text message subscriptions have no subscribe link: texts arrive once the number is confirmed.',

    async deliver(requests, signal, onOutcome) {
      const gateway = runtime.gateway;
      if (!gateway) return requests.map(() => ({ kind: 'retry', reason: 'no SMS gateway is configured' }) as const);
      const now = context.now();
      const sent: Array<{ sid: string; ledgerId: number; subscriptionId: number; escalationStep: boolean }> = [];
      const stopped: number[] = [];
      const abort = batchAbort(signal);
      const sending = Promise.all(
        requests.map(async (request, index): Promise<DeliveryOutcome> => {
          const link = request.subscription.escalationStep ? null : `${base}/manage/${request.subscription.publicId}`;
          const body = notificationText(request.rendered.title, request.rendered.body, link, sms.MaxSegments, request.asks);
          const result = await gateway.send({ to: request.subscription.destination, body, statusCallback: runtime.statusCallbackUrl }, abort);
          const verdict = judgeGatewayResult(result);
          if (verdict.sid)
            sent.push({
              sid: verdict.sid,
              ledgerId: request.ledgerId,
              subscriptionId: request.subscription.id,
              escalationStep: request.subscription.escalationStep === true,
            });
          if (verdict.stop && !request.subscription.escalationStep) stopped.push(request.subscription.id);
          onOutcome?.(index, verdict.outcome);
          return verdict.outcome;
        }),
      );
      const outcomes = await sending.finally(abort.dispose);
      await recordSentMessages(context.db, sent, now);
      await context.subscriptions.setActive(stopped, false);
      if (stopped.length > 0) context.log.info({ subscriptions: stopped.length }, 'numbers that opted out at their carrier: subscriptions stopped');
      return outcomes;
    },

    async onSubscriptionsCreated(trx, subscriptions) {
      await queueVerifications(trx, subscriptions, context.now());
      await runtime.outbox.notify(trx);
    },

    close: () => runtime.close(),
  };
}
