import { Errors, subscriberNumber, type DeliveryOutcome, type DeliveryTarget } from '#plugin-api';
import { judgeCallResult } from './call-result.ts';
import { callWords, spokenNotification } from './call-words.ts';
import { callTwiml } from './twiml.ts';
import { callVerifications, recordCalls, type PlacedCall } from './voice-repository.ts';
import { missingVoiceGateway, type VoiceRuntime } from './voice-runtime.ts';

/**
 * The Voice delivery target: a direct target. Each delivery is one call
 * through the gateway (pooled connections) that reads the message in the
 * subscriber's language where the gateway has a voice for it (else in
 * English: core renders it so, as `languages()` says); its sid is kept for
 * the status callbacks. A new subscription starts inactive with a
 * verification call queued.
 */
export function createVoiceTarget(runtime: VoiceRuntime): DeliveryTarget {
  const { context, voices } = runtime;
  const voice = context.config.Voice;
  const region = voice.DefaultRegion;
  const site = new URL(context.coreConfig.PublicBaseUrl).host;
  const numberHint = region ? `+94112345678, or a national number of ${region}` : 'in international form, like +94112345678';

  return {
    provider: 'Voice',
    startsActive: false,
    // A call asks for a confirmation itself: "press 1".
    confirmsByKey: true,
    takesEscalationSteps: true,

    prepareDestination(requested) {
      const checked = requested === undefined ? ({ refused: 'invalid' } as const) : subscriberNumber(requested, region, 'call');
      if ('number' in checked) return checked.number;
      if (checked.refused === 'not mobile') {
        throw new Errors.InvalidField(`body/delivery/destination must be a phone number that can take calls: this one is a ${checked.kind} number`);
      }
      throw new Errors.InvalidField(`body/delivery/destination must be a phone number (${numberHint})`);
    },

    verificationKey: (destination) => destination,
    unavailableReason: () => missingVoiceGateway(context.config),
    concurrency: () => voice.Connections,
    languages: () => [...voices.keys()],
    subscribeUrl: () => null,
    subscribeUrlUnavailableReason: () => 'Voice call subscriptions have no subscribe link: calls come once the number is confirmed.',

    async deliver(requests, signal, onOutcome) {
      const gateway = runtime.gateway;
      if (!gateway) return requests.map(() => ({ kind: 'retry', reason: 'no voice gateway is configured' }) as const);
      const placed: PlacedCall[] = [];
      const outcomes = await Promise.all(
        requests.map(async (request, index): Promise<DeliveryOutcome> => {
          const words = callWords(voices, request.subscription.language);
          const said = [words.spoken(words.t('call.intro', { site })), words.spoken(spokenNotification(request.rendered.title, request.rendered.body))];
          const twiml = request.confirm
            ? callTwiml(said, {
                prompt: words.spoken(words.t('call.confirmPrompt')),
                action: runtime.gatherUrl,
                noAnswer: words.spoken(words.t('call.notConfirmed')),
              })
            : callTwiml([...said, words.spoken(words.t('call.goodbye'))]);
          const { outcome, sid } = judgeCallResult(
            await gateway.call({ to: request.subscription.destination, twiml, statusCallback: runtime.statusCallbackUrl }, signal),
          );
          if (sid)
            placed.push({
              sid,
              purpose: 'alert',
              subscriptionId: request.subscription.id,
              ledgerId: request.ledgerId,
              language: request.subscription.language ?? 'en',
            });
          onOutcome?.(index, outcome);
          return outcome;
        }),
      );
      await recordCalls(context.db, placed, context.now());
      return outcomes;
    },

    async onSubscriptionsCreated(trx, subscriptions) {
      await callVerifications.queue(trx, subscriptions, context.now());
      await runtime.outbox.notify(trx);
    },

    close: () => runtime.close(),
  };
}
