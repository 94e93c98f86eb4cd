import { cpSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { NotificationEvent } from '../../core/plugin-api/feed-types.ts';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import type { SmtpDouble } from './smtp-double.ts';

/** Harness of the delivery-email tests: the real plugin, the real feeds, the fixture push target and an SMTP double. */
export const OUTBOX_WORKER = 'delivery-email.outbox';
export const PUBLIC_BASE_URL = 'https://alerts.example.org';

/** A plugins folder with the real feed plugins, fixture-push and the real delivery-email plugin. */
export function emailPluginsDir(): string {
  const dir = mkdtempSync(path.join(tmpRoot(), 'email-plugins-'));
  for (const plugin of ['utility-power-outages', 'utility-scheduled-outages', 'delivery-email']) {
    cpSync(path.join(projectRoot, 'plugins', plugin), path.join(dir, plugin), { recursive: true });
  }
  cpSync(path.join(projectRoot, 'test', 'fixtures', 'delivery-plugins', 'fixture-push'), path.join(dir, 'fixture-push'), { recursive: true });
  return dir;
}

/** A clock the test moves: backoffs and leases pass without waiting. */
export function testClock(start = new Date('2026-11-22T10:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(seconds: number) {
      current += seconds * 1000;
    },
  };
}

export interface EmailAppOptions {
  database: ProvisionedDatabase;
  pluginsDir: string;
  smtp: SmtpDouble;
  env?: Record<string, string>;
  now?: () => Date;
  workers?: boolean;
}

export function startEmailApp(options: EmailAppOptions): Promise<TestApp> {
  return startTestApp({
    database: options.database,
    pluginsDir: options.pluginsDir,
    workers: options.workers ?? true,
    now: options.now,
    env: {
      PublicBaseUrl: PUBLIC_BASE_URL,
      // Tests drive the worker (runNow, wake-ups); the periodic sweep stays out of the way.
      EmailOutbox__IntervalSeconds: '3600',
      SubscriptionLimits__MaxPerIp: '1000',
      SubscriptionLimits__MaxPerIpPerDay: '1000',
      Jwt__Secret: 'test-jwt-secret-0123456789abcdef',
      ...options.smtp.env,
      ...options.env,
    },
  });
}

export async function createEmailSubscription(
  app: FastifyInstance,
  body: { displayName: string; destination: string; feedId?: string; filter?: Record<string, string[]> },
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/notification-subscriptions',
    payload: {
      displayName: body.displayName,
      feedId: body.feedId ?? 'utility.power-outages',
      ...(body.filter ? { filter: body.filter } : {}),
      delivery: { provider: 'Email', destination: body.destination },
    },
  });
  if (response.statusCode !== 201) throw new Error(`create answered ${response.statusCode}: ${response.body}`);
  return response.json() as { publicId: string; isActive: boolean; manageToken: string; delivery: { destination: string } };
}

export function newOutageEvent(id: string, areas: string[] = ['Kandy'], feeder = 'F12'): NotificationEvent {
  return {
    feedId: 'utility.power-outages',
    eventType: 'NewOutage',
    sourceKey: id,
    fields: { feeder, areas: areas.join(', ') },
    sourcePayload: { id, feeder, areas, timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' },
  };
}

/** The path and query of a link in an email (for inject), checking it points at PublicBaseUrl. */
export function linkIn(text: string | undefined, action: 'verify' | 'unsubscribe'): string {
  const match = new RegExp(`${PUBLIC_BASE_URL.replace(/[.]/g, '\\.')}(/api/notification-subscriptions/[^/\\s]+/${action}\\?token=[^\\s>"&]+)`).exec(text ?? '');
  if (!match) throw new Error(`no ${action} link in the email`);
  return match[1];
}
