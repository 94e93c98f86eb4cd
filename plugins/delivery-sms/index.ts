import { defineDeliveryPlugin } from '#plugin-api';
import { smsConfig } from './config.ts';
import { smsRetention } from './sms-retention.ts';
import { smsRoutes } from './sms-routes.ts';
import { createSmsRuntime } from './sms-runtime.ts';
import { createSmsTarget } from './sms-target.ts';

/**
 * Delivery by text message through a gateway speaking Twilio's Messages API
 * (provider value Sms): numbers confirmed by a code or a YES reply, texts
 * fitted to Sms__MaxSegments, replies (STOP, START, HELP, STATUS) and
 * delivery reports taken at /api/sms/inbound and /api/sms/status.
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-sms',
  apiVersion: 4,
  description: "Sends notifications by text message through a gateway speaking Twilio's Messages API, with replies and delivery reports.",
  provider: 'Sms',
  displayName: 'Text message',
  destination: {
    required: true,
    description:
      'A mobile phone number, E.164 (+94771234567) or national in Sms__DefaultRegion. A text with a code is sent there first; nothing else is sent until the code is entered or YES is replied.',
    label: 'Mobile number',
    inputType: 'tel',
    autocomplete: 'tel',
    hint: 'We first text you a code. Reply STOP at any time to stop.',
  },
  confirmation: {
    heading: 'Check your texts',
    text: 'We texted a code to {destination}. Type it here, or reply YES to that text: your alerts start then.',
    codeUrl: '/api/notification-subscriptions/{publicId}/verify-code',
  },
  config: smsConfig,
  setup(context) {
    // One gateway client and one verification outbox, shared by the target and the routes.
    const runtime = createSmsRuntime(context);
    return {
      target: createSmsTarget(runtime),
      workers: [smsRetention(context)],
      routes: (app) => smsRoutes(app, runtime),
    };
  },
});
