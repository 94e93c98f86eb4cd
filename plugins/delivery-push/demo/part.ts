import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { startPushInbox } from '../../../demo/push-inbox/push-inbox.ts';

/** The demo's push inbox: an ntfy-compatible server with a live page of every topic. */
export const startDemoPart: StartDemoPart = async ({ log }) => {
  const inbox = await startPushInbox({ log });
  return {
    name: 'Push inbox',
    url: inbox.baseUrl,
    env: { Notifications__Push__BaseUrl: inbox.baseUrl, Notifications__Push__PublishToken: inbox.publishToken, Notifications__Push__TimeoutSeconds: '5' },
    close: () => inbox.close(),
  };
};
