import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baseProcessEnv, demoServiceEnv } from './demo-env.ts';
import { createLogOutput } from './log-output.ts';
import { startMailInbox, type MailInbox } from './mail-inbox/mail-inbox.ts';
import { startPushInbox, type PushInbox } from './push-inbox/push-inbox.ts';
import { startSmsGateway, type SmsGateway } from './sms-gateway/phone-pages.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-inbox/webhook-receiver.ts';
import { startBrowserInbox, type BrowserInbox } from './webpush-inbox/browser-inbox.ts';
import webpush from 'web-push';
import { startSampleFeed, type SampleFeed } from './sample-feed/sample-feed.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { freeLoopbackPort } from './web/loopback.ts';
import { adminToken } from './admin-token.ts';

/**
 * `npm run demo`: the real service on a throwaway embedded database, a
 * sample utility feed playing a scripted day, a push inbox and a mail
 * inbox, all on 127.0.0.1. Prints the four URLs, then the logs. Ctrl-C
 * (SIGINT), SIGTERM or SIGHUP stops everything and removes the temporary
 * folder; a second signal stops the service at once.
 */
const output = createLogOutput((text) => process.stdout.write(text), process.stdout.isTTY === true);
const workDir = mkdtempSync(path.join(tmpdir(), 'notification-demo-'));
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let feed: SampleFeed | undefined;
let push: PushInbox | undefined;
let mail: MailInbox | undefined;
let sms: SmsGateway | undefined;
let hooks: WebhookReceiver | undefined;
let browsers: BrowserInbox | undefined;
let service: ServiceProcess | undefined;
let stopping: Promise<void> | undefined;

async function stopAll(reason: string, exitCode: number): Promise<void> {
  output.release();
  output.note('demo', `${reason}: stopping`);
  const serviceExit = await service?.stop();
  if (serviceExit !== undefined && serviceExit !== 0 && exitCode === 0) output.note('demo', `the service ended with ${serviceExit}`);
  await Promise.allSettled([feed?.close(), push?.close(), mail?.close(), sms?.close(), hooks?.close(), browsers?.close()]);
  rmSync(workDir, { recursive: true, force: true });
  output.note('demo', `stopped; removed ${workDir}`);
  process.exitCode = exitCode;
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping === undefined) {
    stopping = stopAll(signal, 0);
    return;
  }
  output.note('demo', `${signal} again: stopping the service at once`);
  void service?.stop(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

async function main(): Promise<void> {
  process.stderr.write('Starting the demo: the service, a sample utility feed, a push inbox, a mail inbox, a text gateway, a webhook receiver and a browser push service (a few seconds)…\n');
  output.hold();
  feed = await startSampleFeed({ timeZone, log: (message) => output.note('sample feed', message) });
  push = await startPushInbox({ log: (message) => output.note('push inbox', message) });
  mail = await startMailInbox({ log: (message) => output.note('mail inbox', message) });
  const servicePort = await freeLoopbackPort();
  browsers = await startBrowserInbox({ log: (message) => output.note('browser push service', message) });
  hooks = await startWebhookReceiver({ log: (message) => output.note('webhook receiver', message) });
  sms = await startSmsGateway({ publicBaseUrl: `http://127.0.0.1:${servicePort}`, log: (message) => output.note('text gateway', message) });
  const jwtSecret = `demo-jwt-${randomBytes(24).toString('base64url')}`;
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  browsers.setServiceUrl(serviceUrl);
  const env = demoServiceEnv({
    servicePort,
    databaseDir: path.join(workDir, 'database'),
    timeZone,
    feed,
    push,
    // The mail inbox takes any login; the password only has to be one the log redaction cannot mistake for a word.
    smtp: { port: mail.smtpPort, password: `demo-smtp-${randomBytes(12).toString('base64url')}` },
    sms,
    webPush: (({ publicKey, privateKey }) => ({ WebPush__VapidPublicKey: publicKey, WebPush__VapidPrivateKey: privateKey }))(webpush.generateVAPIDKeys()),
    jwtSecret,
  });
  const tmp = path.join(workDir, 'tmp');
  mkdirSync(tmp); // the service's own temporary files stay in the folder removed at the end
  output.note('demo', `temporary folder ${workDir} (removed on exit)`);
  service = startServiceProcess({ ...baseProcessEnv(process.env, tmp), ...env }, serviceUrl, (chunk) => output.serviceChunk(chunk), { ownProcessGroup: true });
  void service.exited.then((code) => {
    if (stopping === undefined) stopping = stopAll(`the service ended unexpectedly (${code})`, 1);
  });
  await service.ready;
  if (stopping !== undefined) return;
  const token = adminToken(jwtSecret);
  process.stdout.write(
    `Service: ${serviceUrl}\nSubscribe page: ${serviceUrl}/subscribe\nPush inbox: ${push.baseUrl}\nMail inbox: ${mail.baseUrl}\nText gateway: ${sms.baseUrl}\nWebhook receiver: ${hooks.url}\nBrowser push service: ${browsers.url}\n` +
      `Operator console (this link signs you in): ${serviceUrl}/console#token=${token}\n` +
      `Admin token (12 h): ${token}\n` +
      `  curl -H "Authorization: Bearer <admin token>" ${serviceUrl}/api/admin/feeds   (also /api/admin/deliveries, /metrics, /docs)\n`,
  );
  output.release();
  feed.begin();
  output.note('demo', 'the scripted day has begun: a power outage in a few seconds, then one every couple of minutes. Ctrl-C stops the demo.');
}

main().catch((err: unknown) => {
  process.stderr.write(`The demo could not start: ${(err as Error).message}\n`);
  stopping ??= stopAll('start-up failed', 1);
});
