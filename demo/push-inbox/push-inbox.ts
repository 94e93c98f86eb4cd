import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createEventHub } from '../web/event-stream.ts';
import { listenOnLoopback } from '../web/loopback.ts';
import { createAssets, sendPage } from '../web/page.ts';
import { RESERVED_TOPICS, TOPIC_RE } from './ntfy-protocol.ts';
import { createNtfyServer, type StoredMessage } from './ntfy-server.ts';

export interface PushInbox {
  readonly baseUrl: string;
  /** The access token the service publishes with (`tk_` + 29 characters, like ntfy's). */
  readonly publishToken: string;
  close(): Promise<void>;
}

const PUBLISHER = 'demo-service';

/**
 * The demo's push inbox: a small ntfy-compatible server (publish, poll API,
 * sequence ids, tokens) on 127.0.0.1 with a live web page of every topic.
 * `GET /` is the page, `GET /<topic>` the page of one topic (where ntfy
 * serves its web app, so a subscribe link opens it). Anyone on this machine
 * may publish and read (open topics, as on ntfy.sh); a wrong token is still
 * a 401, as ntfy answers.
 */
export async function startPushInbox(options: { log: (message: string) => void }): Promise<PushInbox> {
  const publishToken = `tk_${randomBytes(22).toString('base64url').slice(0, 29)}`;
  const ntfy = createNtfyServer({
    tokens: { [publishToken]: PUBLISHER },
    acl: [{ user: '*', topic: '*', permission: 'read-write' }],
    defaultAccess: 'deny-all',
  });
  const hub = createEventHub();
  ntfy.onStored(({ message, json }) => {
    hub.publish(json);
    if (message.event === 'message') options.log(logLine(message));
  });
  const assets = createAssets({ 'push-inbox.js': new URL('./assets/push-inbox.js', import.meta.url) });

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET') {
      if (path === '/_events')
        return hub.connect(
          req,
          res,
          ntfy
            .stored()
            .filter((e) => e.message.cached)
            .map((e) => e.json),
        );
      if (assets(res, path)) return;
      const topic = path.slice(1);
      if (path === '/' || (TOPIC_RE.test(topic) && !RESERVED_TOPICS.has(topic))) return sendPage(res, 'Push inbox', 'push-inbox.js');
    }
    ntfy.handle(req, res);
  });
  server.keepAliveTimeout = 60_000;
  const port = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    publishToken,
    close: () =>
      new Promise<void>((resolve) => {
        hub.closeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function logLine(message: StoredMessage): string {
  const replaces = message.sequence_id === undefined ? '' : ` (sequence_id ${message.sequence_id})`;
  return `${message.topic}: ${message.title ?? message.message ?? ''}${replaces}`;
}
