import type { PluginQueue } from '#plugin-api';
import type { SmsContext } from './config.ts';
import { createGatewayClient, type GatewayClient, type GatewaySettings } from './gateway-client.ts';
import { failoverClient } from './gateway-failover.ts';
import { defineVerificationOutbox } from './verification-outbox.ts';

/**
 * What the target, the outbox and the routes of one plugin context share:
 * one pooled gateway client (none without a gateway configured) and the
 * verification outbox. Made once, by the plugin's setup; closed with the target.
 */
export interface SmsRuntime {
  readonly context: SmsContext;
  /** Null while no gateway is configured. */
  readonly gateway: GatewayClient | null;
  readonly outbox: PluginQueue;
  /** Where the gateway posts delivery reports (and what their signatures are over). */
  readonly statusCallbackUrl: string;
  /** Every gateway texts may go to: a callback signed with one's auth token is that gateway's. */
  readonly gateways: readonly NamedGatewaySettings[];
  /** `https://alerts.example/api/sms/inbound`: the site's base URL and the request's path, as the gateway signed it. */
  signedUrl(path: string): string;
  close(): Promise<void>;
}

/** A gateway as configured: `Default` (Sms__AccountSid, …), or one of Sms__Gateways__<Name>__…. */
export type NamedGatewaySettings = Omit<GatewaySettings, 'timeoutSeconds' | 'connections'> & { readonly name: string };

/**
 * The gateways texts may go to, in the order they are tried (pure): the
 * one of Sms__AccountSid first when it is complete, then Sms__Gateways by
 * Order and name; one without a sender (From or MessagingServiceSid) is left out.
 */
export function gatewaysOf(config: SmsContext['config']): NamedGatewaySettings[] {
  const sms = config.Sms;
  const first: NamedGatewaySettings[] =
    sms.AccountSid && sms.AuthToken && (sms.From || sms.MessagingServiceSid)
      ? [
          {
            name: 'Default',
            baseUrl: sms.BaseUrl,
            accountSid: sms.AccountSid,
            authToken: sms.AuthToken,
            from: sms.From,
            messagingServiceSid: sms.MessagingServiceSid,
          },
        ]
      : [];
  const named = Object.entries(sms.Gateways ?? {})
    .filter(([, gateway]) => gateway.From || gateway.MessagingServiceSid)
    .sort(([a, x], [b, y]) => x.Order - y.Order || a.localeCompare(b))
    .map(([name, gateway]) => ({
      name,
      baseUrl: gateway.BaseUrl,
      accountSid: gateway.AccountSid,
      authToken: gateway.AuthToken,
      from: gateway.From,
      messagingServiceSid: gateway.MessagingServiceSid,
    }));
  return [...first, ...named];
}

/** Why texts cannot be sent, naming what to set; undefined when they can. */
export function missingGateway(config: SmsContext['config']): string | undefined {
  if (gatewaysOf(config).length > 0) return undefined;
  const { AccountSid, AuthToken, From, MessagingServiceSid } = config.Sms;
  const missing = [
    !AccountSid && 'Sms__AccountSid',
    !AuthToken && 'Sms__AuthToken',
    !From && !MessagingServiceSid && 'Sms__From (or Sms__MessagingServiceSid)',
  ].filter(Boolean);
  return `No SMS gateway is configured (${missing.join(', ')} unset, and no Sms__Gateways__<Name>__… with a sender), so no text, the verification code first, can be sent.`;
}

export function createSmsRuntime(context: SmsContext): SmsRuntime {
  const sms = context.config.Sms;
  const settings = gatewaysOf(context.config);
  // Each gateway with its own keep-alive connections; several are tried in order when one is down.
  const gateway =
    settings.length === 0
      ? null
      : failoverClient(
          settings.map(({ name, ...one }) => ({
            name,
            client: createGatewayClient({ ...one, timeoutSeconds: sms.TimeoutSeconds, connections: sms.Connections }),
          })),
          {
            now: () => context.now().getTime(),
            onDown: (name, result) =>
              context.log.warn(
                { gateway: name, result: result.kind === 'answered' ? result.status : result.kind },
                'sms gateway down: texts go to the next one for a minute',
              ),
          },
        );
  if (!gateway) context.log.warn('no SMS gateway is configured: texts wait until one is');
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  return {
    context,
    gateway,
    outbox: defineVerificationOutbox(context, gateway),
    statusCallbackUrl: `${base}/api/sms/status`,
    gateways: settings,
    signedUrl: (path) => `${base}${path}`,
    close: async () => gateway?.close(),
  };
}
