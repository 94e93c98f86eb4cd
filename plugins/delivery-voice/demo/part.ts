import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { startDemoVoiceGateway } from '../../../demo/voice-gateway/phone-pages.ts';

/** The demo's voice gateway: Twilio's Voice API, with a page per phone showing each call's text and a "Press 1" button. */
export const startDemoPart: StartDemoPart = async ({ serviceUrl, log }) => {
  const gateway = await startDemoVoiceGateway({ publicBaseUrl: serviceUrl, log });
  return {
    name: 'Voice gateway',
    url: gateway.baseUrl,
    env: { ...gateway.env, Voice__DefaultRegion: 'LK', VoiceOutbox__RetryBaseSeconds: '5' },
    close: () => gateway.close(),
  };
};
