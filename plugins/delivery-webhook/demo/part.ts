import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { startWebhookReceiver } from '../../../demo/webhook-inbox/webhook-receiver.ts';

/** The demo's webhook receiver: verifies each signed hook (Standard Webhooks) and shows it. */
export const startDemoPart: StartDemoPart = async ({ log }) => {
  const receiver = await startWebhookReceiver({ log });
  return {
    name: 'Webhook receiver',
    url: receiver.url,
    // It listens on loopback, which the host rules refuse unless listed.
    env: { Webhook__AllowedHosts: '127.0.0.1' },
    close: () => receiver.close(),
  };
};
