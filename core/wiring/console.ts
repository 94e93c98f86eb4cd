import type { FastifyInstance } from 'fastify';
import { consoleRoutes } from '../console/console-routes.ts';
import { createOidcSignIn } from '../console/oidc-sign-in.ts';
import { ConfigError } from '../config/load-config.ts';
import type { WiredBefore } from './services.ts';

/**
 * The operator console (GET /console and /console/api/…): sign-in with the
 * organisation's identity provider when Console__Oidc__Issuer is set, with
 * an admin token always; in a scope of its own (its session cookie and CSRF
 * protection touch no other route).
 */
export async function wireConsole(app: FastifyInstance, inputs: WiredBefore): Promise<void> {
  const { platform, delivery, pipeline, operations } = inputs;
  const settings = platform.config.Console;
  const oidc = settings.Oidc;
  if (oidc.Issuer && !oidc.ClientId) throw new ConfigError(['Console__Oidc__ClientId is required with Console__Oidc__Issuer']);
  const publicBaseUrl = platform.config.PublicBaseUrl;
  if (!platform.config.Jwt.Secret && !settings.SessionSecret) {
    app.log.warn('the console has no session key (Jwt__Secret or Console__SessionSecret): its sign-ins end with this process and hold on this instance only');
  }
  await app.register(async (scope) =>
    consoleRoutes(scope, {
      db: inputs.external.db,
      authenticate: inputs.coreServices.auth.authenticate,
      oidc: oidc.Issuer
        ? {
            signIn: createOidcSignIn({
              issuer: oidc.Issuer,
              clientId: oidc.ClientId!,
              clientSecret: oidc.ClientSecret,
              redirectUri: new URL('/console/callback', publicBaseUrl).href,
            }),
            adminRole: oidc.AdminRole,
          }
        : null,
      sessionSecret: platform.config.Jwt.Secret ?? settings.SessionSecret,
      sessionHours: settings.SessionHours,
      publicBaseUrl,
      feeds: operations.monitoredFeeds,
      staleAfterPolls: platform.config.FeedHealth.StaleAfterPolls,
      now: platform.now,
      announcers: platform.registry.feeds.filter((manifest) => manifest.announcement !== undefined),
      filters: delivery.rules.filters,
      pageSize: platform.config.NotificationPipeline.FanoutPageSize,
      pipeline: pipeline.pipeline,
      handOver: pipeline.handOver,
      lanes: delivery.lanes,
      directProviders: operations.directProviders,
      providers: [...delivery.targets.keys()],
      confirmations: delivery.confirmations,
      targets: delivery.targets,
      catalogFeed: (feedId) => platform.registry.catalogFeed(feedId),
      rates: operations.rates,
    }),
  );
}
