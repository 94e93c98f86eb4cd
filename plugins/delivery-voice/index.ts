import { defineDeliveryPlugin } from '#plugin-api';
import { voiceConfig } from './config.ts';
import { voiceRetention } from './voice-retention.ts';
import { voiceRoutes } from './voice-routes.ts';
import { createVoiceRuntime } from './voice-runtime.ts';
import { createVoiceTarget } from './voice-target.ts';

/**
 * Delivery by voice call through a gateway speaking Twilio's Voice API
 * (provider value Voice): each alert read aloud in the subscriber's
 * language where the gateway has a voice for it (Voice__Voices), else in
 * English; numbers confirmed by a call that reads a code (or by pressing 1
 * in it); call statuses and keys taken at /api/voice/status and /api/voice/gather.
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-voice',
  apiVersion: 5,
  description: "Reads notifications aloud in a phone call through a gateway speaking Twilio's Voice API, with call statuses and keys pressed.",
  provider: 'Voice',
  displayName: 'Voice call',
  destination: {
    required: true,
    description:
      'A phone number that takes calls (a landline too), E.164 (+94112345678) or national in Voice__DefaultRegion. A call that reads a code comes first; nothing else is sent until the code is entered or 1 is pressed in that call.',
    label: 'Phone number',
    inputType: 'tel',
    autocomplete: 'tel',
    hint: 'We first call you with a code. Alerts are read to you; calls are in English where we have no voice for your language.',
  },
  confirmation: {
    heading: 'Answer our call',
    text: 'We are calling {destination} with a code. Type it here, or press 1 during the call: your alerts start then.',
    codeUrl: '/api/notification-subscriptions/{publicId}/verify-call-code',
  },
  // Twilio places one call a second per account unless raised.
  defaultRatePerSecond: 1,
  config: voiceConfig,
  setup(context) {
    const runtime = createVoiceRuntime(context);
    return {
      target: createVoiceTarget(runtime),
      workers: [voiceRetention(context)],
      routes: (app) => voiceRoutes(app, runtime),
    };
  },
});
