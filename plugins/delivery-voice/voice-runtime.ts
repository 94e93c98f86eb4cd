import type { PluginQueue } from '#plugin-api';
import type { VoiceContext } from './config.ts';
import { createVoiceGatewayClient } from './gateway-client.ts';
import { defineCallOutbox, type Calling } from './call-outbox.ts';
import { parseVoices } from './voices.ts';

/**
 * What the target, the outbox and the routes of one plugin context share:
 * one pooled gateway client (none without a gateway configured), the
 * voices, and the verification-call outbox.
 */
export interface VoiceRuntime extends Calling {
  readonly outbox: PluginQueue;
  /** The site's base URL and a request's path, as the gateway signed it. */
  signedUrl(path: string): string;
  close(): Promise<void>;
}

/** Why calls cannot be placed, naming what to set; undefined when they can. */
export function missingVoiceGateway(config: VoiceContext['config']): string | undefined {
  const { AccountSid, AuthToken, From } = config.Voice;
  const missing = [!AccountSid && 'Voice__AccountSid', !AuthToken && 'Voice__AuthToken', !From && 'Voice__From'].filter(Boolean);
  return missing.length === 0
    ? undefined
    : `No voice gateway is configured (${missing.join(', ')} unset), so no call, the verification call first, can be placed.`;
}

export function createVoiceRuntime(context: VoiceContext): VoiceRuntime {
  const voice = context.config.Voice;
  const gateway =
    missingVoiceGateway(context.config) === undefined
      ? createVoiceGatewayClient({
          baseUrl: voice.BaseUrl,
          accountSid: voice.AccountSid!,
          authToken: voice.AuthToken!,
          from: voice.From!,
          timeoutSeconds: voice.TimeoutSeconds,
          connections: voice.Connections,
        })
      : null;
  if (!gateway) context.log.warn('no voice gateway is configured: calls wait until one is');
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  const voices = parseVoices(voice.Voices);
  const calling: Calling = { context, gateway, voices, statusCallbackUrl: `${base}/api/voice/status`, gatherUrl: `${base}/api/voice/gather` };
  return {
    ...calling,
    outbox: defineCallOutbox(calling),
    signedUrl: (path) => `${base}${path}`,
    close: async () => gateway?.close(),
  };
}
