import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { pluginModule } from '../helpers/plugin-module.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const SECRET = 'hostile-jwt-secret-0123456789abcdef';

/** Values that get a request past its first checks, so hostile input reaches the handlers. */
export interface Seeds {
  pushPublicId: string;
  pushManageToken: string;
  /** Without the email plugin: the push subscription's id and tokens that fit no route (there are no email routes to reach). */
  emailPublicId: string;
  verifyToken: string;
  unsubscribeToken: string;
  adminBearer: string;
  userBearer: string;
}

export interface HostileHarness {
  app: FastifyInstance;
  seeds: Seeds;
  close(): Promise<void>;
}

/**
 * The service with every shipped plugin (the real plugins folder, so a
 * plugin or route added later is in it), no workers, a push server double,
 * and one Push and one Email subscription whose tokens are known.
 */
export async function startHostileHarness(): Promise<HostileHarness> {
  const database: ProvisionedDatabase = await provisionDatabase(await preferredKind());
  const push: PushServerDouble = await startPushServerDouble();
  let started: TestApp | undefined;
  try {
    started = await startTestApp({
      pluginsDir: EVERY_INSTALLED_PLUGIN,
      database,
      workers: false,
      env: {
        Jwt__Secret: SECRET,
        PublicBaseUrl: 'https://alerts.example.org',
        Notifications__Push__BaseUrl: push.baseUrl,
        Notifications__Push__PublishToken: DEFAULT_PUBLISHER_TOKEN,
        Notifications__Push__TimeoutSeconds: '2',
        NotificationPipeline__CooldownSeconds: '0',
      },
    });
    const app = started.app;
    const create = async (delivery: object) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'seed', feedId: 'utility.power-outages', delivery },
        remoteAddress: '198.51.100.250',
      });
      if (response.statusCode !== 201) throw new Error(`seeding answered ${response.statusCode}: ${response.body}`);
      return response.json() as { publicId: string; manageToken: string };
    };
    const pushSubscription = await create({ provider: 'Push' });
    const email = await emailSeeds(servicesOf(app).database.knex, () => create({ provider: 'Email', destination: 'seed@example.org' }));
    const seeds: Seeds = {
      pushPublicId: pushSubscription.publicId,
      pushManageToken: pushSubscription.manageToken,
      ...(email ?? { emailPublicId: pushSubscription.publicId, verifyToken: 'no-email-plugin', unsubscribeToken: 'no-email-plugin' }),
      adminBearer: `Bearer ${jwtFor(SECRET, { sub: 'ops', role: 'admin' })}`,
      userBearer: `Bearer ${jwtFor(SECRET, { sub: 'someone' })}`,
    };
    const running = started;
    return {
      app,
      seeds,
      close: async () => {
        await running.close();
        await push.close();
        await database.drop();
      },
    };
  } catch (error) {
    await started?.close();
    await push.close();
    await database.drop();
    throw error;
  }
}

/** An email subscription with its verification and unsubscribe tokens, or null without the email plugin. */
async function emailSeeds(
  knex: Knex,
  create: () => Promise<{ publicId: string }>,
): Promise<Pick<Seeds, 'emailPublicId' | 'verifyToken' | 'unsubscribeToken'> | null> {
  const tokens = await pluginModule<{ unsubscribeToken(key: string, publicId: string): string }>('delivery-email', 'link-tokens.ts');
  const repository = await pluginModule<{ loadLinkKey(knex: Knex): Promise<string> }>('delivery-email', 'outbox-repository.ts');
  if (!tokens || !repository) return null;
  const { publicId } = await create();
  const outbox = await knex('email_outbox').where({ kind: 'verification' }).first('params');
  const params = typeof outbox.params === 'string' ? JSON.parse(outbox.params) : outbox.params;
  return { emailPublicId: publicId, verifyToken: params.token, unsubscribeToken: tokens.unsubscribeToken(await repository.loadLinkKey(knex), publicId) };
}

/** A route's URL with its parameters filled in (each byte percent-encoded, so any string fits). */
export function fillPath(url: string, value: (name: string) => string): string {
  const encode = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return url.replace(/:([A-Za-z0-9_]+)|\*/g, (_match, name: string | undefined) => encode(value(name ?? '*')));
}

export function queryString(entries: ReadonlyArray<readonly [string, string]>): string {
  const encode = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return entries.length === 0 ? '' : `?${entries.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')}`;
}
