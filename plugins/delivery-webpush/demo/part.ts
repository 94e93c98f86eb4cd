import webpush from 'web-push';
import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { BROWSER_PUSH_SERVICES } from '../config.ts';
import { startBrowserInbox } from '../../../demo/webpush-inbox/browser-inbox.ts';

/** The demo's browser push service: browsers of its own, each push verified (VAPID) and decrypted (RFC 8291) as a browser would. */
export const startDemoPart: StartDemoPart = async ({ serviceUrl, log }) => {
  const browsers = await startBrowserInbox({ log });
  browsers.setServiceUrl(serviceUrl);
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return {
    name: 'Browser push service',
    url: browsers.url,
    // A VAPID key pair made for this run. The demo's push service listens on loopback, which is listed, and so are the real
    // browsers' push services: a browser opened on the demo's subscribe page can subscribe too (its pushes need the internet).
    env: {
      WebPush__VapidPublicKey: publicKey,
      WebPush__VapidPrivateKey: privateKey,
      WebPush__AllowedEndpointHosts: ['127.0.0.1', ...BROWSER_PUSH_SERVICES].join(','),
    },
    close: () => browsers.close(),
  };
};
