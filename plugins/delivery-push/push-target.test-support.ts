import { createServer } from 'node:net';
import {
  createPluginTestContext,
  type DeliveryPluginContext,
  type DeliveryRequest,
  type DeliveryTarget,
  type NotificationPriority,
  type RenderedNotification,
} from '#plugin-api';
// A test-only import from outside the plugin: the ntfy double every push test shares.
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble, type PushServerDoubleOptions } from '../../test/doubles/push-server-double.ts';
import type { pushConfig } from './config.ts';
import { manifest } from './index.ts';

/** The harness of the push target's tests (push-target*.test.ts): the target as core builds it, against the ntfy double. */
export const SYSTEM_TOPIC = 'utility-power-outages';
export const TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;
type PushSettings = DeliveryPluginContext<typeof pushConfig>['config']['Notifications:Push'];

export interface Harness {
  target: DeliveryTarget;
  logs: string[];
  setNow(date: Date): void;
}

const harnesses: Harness[] = [];

/** The target as core builds it: the target the manifest's setup returns, with the plugin test context. */
export async function buildTarget(settings: Partial<PushSettings>): Promise<Harness> {
  const logs: string[] = [];
  let now = new Date('2026-11-22T10:00:00.000Z');
  const base = createPluginTestContext(manifest, { logs, now: () => now, topicAllowlist: { topics: [SYSTEM_TOPIC], prefixes: [] } });
  const context = { ...base, config: { 'Notifications:Push': { ...base.config['Notifications:Push'], ...settings } } };
  const target = (await manifest.setup!(context)).target!;
  const harness = { target, logs, setNow: (date: Date) => void (now = date) };
  harnesses.push(harness);
  return harness;
}

/** The shared double and a target on it (1 s publish timeout); close them with closePushHarness. */
export async function startPushHarness(): Promise<{ double: PushServerDouble; harness: Harness }> {
  const double = await startPushServerDouble();
  const harness = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN, TimeoutSeconds: 1 });
  return { double, harness };
}

export async function closePushHarness(double: PushServerDouble): Promise<void> {
  for (const h of harnesses.splice(0)) await h.target.close?.();
  await double.close();
}

let nextLedgerId = 1;
export function request(options: { topic?: string; itemKey?: string; eventType?: string; rendered?: Partial<RenderedNotification> } = {}): DeliveryRequest {
  const itemKey = options.itemKey ?? 'PO-1001';
  const rendered: RenderedNotification = {
    title: 'Power outage: Kandy, Peradeniya',
    body: 'Feeder: F12\nAreas: Kandy, Peradeniya',
    sequenceId: `po-${itemKey}`,
    tags: ['warning', 'electric_plug'],
    priority: 'High' as NotificationPriority,
    ...options.rendered,
  };
  return {
    ledgerId: nextLedgerId++,
    attempt: 1,
    subscription: {
      id: 1,
      publicId: 'pub-1',
      displayName: 'Kandy',
      feedId: 'utility.power-outages',
      provider: 'Push',
      destination: options.topic ?? SYSTEM_TOPIC,
      scope: 'System',
    },
    event: { feedId: 'utility.power-outages', eventType: options.eventType ?? 'NewOutage', sourceKey: itemKey, itemKey, fields: {}, sourcePayload: {} },
    rendered,
  };
}

export const deliver = (target: DeliveryTarget, requests: DeliveryRequest[], signal = new AbortController().signal) => target.deliver!(requests, signal);

export async function withDouble(options: PushServerDoubleOptions, fn: (d: PushServerDouble) => Promise<void>): Promise<void> {
  const d = await startPushServerDouble(options);
  try {
    await fn(d);
  } finally {
    await d.close();
  }
}

/** A port with nothing listening: bind, read the port, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
