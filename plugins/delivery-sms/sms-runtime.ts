import type { DeliveryPluginContext, PluginQueue } from '#plugin-api';
import type { smsConfig } from './config.ts';
import { createGatewayClient, type GatewayClient } from './gateway-client.ts';
import { defineVerificationOutbox } from './verification-outbox.ts';

export type SmsContext = DeliveryPluginContext<typeof smsConfig>;

/**
 * What the target, the outbox and the routes of one plugin context share:
 * one pooled gateway client (none without a gateway configured) and the
 * verification outbox. Made on first use, closed with the target.
 */
export interface SmsRuntime {
  readonly context: SmsContext;
  /** Null while no gateway is configured. */
  readonly gateway: GatewayClient | null;
  readonly outbox: PluginQueue;
  /** Where the gateway posts delivery reports (and what their signatures are over). */
  readonly statusCallbackUrl: string;
  /** `https://alerts.example/api/sms/inbound`: the site's base URL and the request's path, as the gateway signed it. */
  signedUrl(path: string): string;
  close(): Promise<void>;
}

/** Why texts cannot be sent, naming what to set; undefined when they can. */
export function missingGateway(config: SmsContext['config']): string | undefined {
  const { AccountSid, AuthToken, From, MessagingServiceSid } = config.Sms;
  const missing = [!AccountSid && 'Sms__AccountSid', !AuthToken && 'Sms__AuthToken', !From && !MessagingServiceSid && 'Sms__From (or Sms__MessagingServiceSid)'].filter(Boolean);
  return missing.length === 0 ? undefined : `No SMS gateway is configured (${missing.join(', ')} unset), so no text, the verification code first, can be sent.`;
}

const runtimes = new WeakMap<SmsContext, SmsRuntime>();

export function smsRuntime(context: SmsContext): SmsRuntime {
  let runtime = runtimes.get(context);
  if (!runtime) {
    runtime = createRuntime(context);
    runtimes.set(context, runtime);
  }
  return runtime;
}

function createRuntime(context: SmsContext): SmsRuntime {
  const sms = context.config.Sms;
  const gateway = missingGateway(context.config)
    ? null
    : createGatewayClient({
        baseUrl: sms.BaseUrl,
        accountSid: sms.AccountSid!,
        authToken: sms.AuthToken!,
        from: sms.From,
        messagingServiceSid: sms.MessagingServiceSid,
        timeoutSeconds: sms.TimeoutSeconds,
        connections: sms.Connections,
      });
  if (!gateway) context.log.warn('no SMS gateway is configured: texts wait until one is');
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  return {
    context,
    gateway,
    outbox: defineVerificationOutbox(context, gateway),
    statusCallbackUrl: `${base}/api/sms/status`,
    signedUrl: (path) => `${base}${path}`,
    close: async () => gateway?.close(),
  };
}
