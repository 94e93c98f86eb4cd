import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baseProcessEnv, demoServiceEnv } from './demo-env.ts';
import { createLogOutput } from './log-output.ts';
import { installedDemoParts, type DemoPart } from './demo-part.ts';
import { startSampleFeed, type SampleFeed } from './sample-feed/sample-feed.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { freeLoopbackPort } from './web/loopback.ts';
import { adminToken } from './admin-token.ts';
import { startAddressSearch } from './address-search/address-search.ts';

/**
 * `npm run demo`: the real service on a throwaway embedded database, a
 * sample utility feed playing a scripted day, and each installed delivery
 * plugin's demo double (a push inbox, a mail inbox, a text gateway…: its
 * `demo/part.ts`), all on 127.0.0.1. Prints their URLs, then the logs. Ctrl-C
 * (SIGINT), SIGTERM or SIGHUP stops everything and removes the temporary
 * folder; a second signal stops the service at once.
 */
// The service's routine lines (requests answered, queue batches that all went out) are left out unless DEMO_LOG=all.
const output = createLogOutput((text) => process.stdout.write(text), process.stdout.isTTY === true, { all: process.env.DEMO_LOG === 'all' });
const workDir = mkdtempSync(path.join(tmpdir(), 'notification-demo-'));
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let feed: SampleFeed | undefined;
const parts: DemoPart[] = [];
let addresses: Awaited<ReturnType<typeof startAddressSearch>> | undefined;
let service: ServiceProcess | undefined;
let stopping: Promise<void> | undefined;

async function stopAll(reason: string, exitCode: number): Promise<void> {
  output.release();
  output.note('demo', `${reason}: stopping`);
  const serviceExit = await service?.stop();
  if (serviceExit !== undefined && serviceExit !== 0 && exitCode === 0) output.note('demo', `the service ended with ${serviceExit}`);
  await Promise.allSettled([feed?.close(), ...parts.map((part) => part.close()), addresses?.close()]);
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
  const found = await installedDemoParts();
  process.stderr.write(`Starting the demo: the service, a sample utility feed and ${found.length} delivery doubles (a few seconds)…\n`);
  output.hold();
  feed = await startSampleFeed({ timeZone, log: (message) => output.note('sample feed', message) });
  const servicePort = await freeLoopbackPort();
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const started: Array<{ plugin: string; part: DemoPart }> = [];
  for (const { plugin, start } of found) {
    const part = await start({ serviceUrl, log: (message) => output.note(plugin, message) });
    parts.push(part);
    started.push({ plugin, part });
  }
  addresses = await startAddressSearch({ log: (message) => output.note('address search', message) });
  const jwtSecret = `demo-jwt-${randomBytes(24).toString('base64url')}`;
  const env = demoServiceEnv({
    servicePort,
    databaseDir: path.join(workDir, 'database'),
    timeZone,
    feed,
    parts: started.map(({ plugin, part }) => ({ plugin, env: part.env })),
    jwtSecret,
    geocoder: addresses,
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
    `Service: ${serviceUrl}\nSubscribe page: ${serviceUrl}/subscribe\nOutage map: ${serviceUrl}/outages\n${parts.map((part) => `${part.name}: ${part.url}\n`).join('')}` +
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
