import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { DEMO_TEXTS_PER_SECOND, startSmsGateway } from '../../../demo/sms-gateway/phone-pages.ts';

/** The demo's text gateway: Twilio's Messages API, with a page per phone to read texts and reply (YES, STOP, STATUS). */
export const startDemoPart: StartDemoPart = async ({ serviceUrl, log }) => {
  const gateway = await startSmsGateway({ publicBaseUrl: serviceUrl, log });
  return {
    name: 'Text gateway',
    url: gateway.baseUrl,
    env: {
      ...gateway.env,
      Sms__DefaultRegion: 'LK',
      SmsOutbox__RetryBaseSeconds: '5',
      // The gateway takes 5 texts a second: the text lane keeps to it, and the console shows the lane at work.
      NotificationPipeline__Rates__Sms: String(DEMO_TEXTS_PER_SECOND),
    },
    close: () => gateway.close(),
  };
};
