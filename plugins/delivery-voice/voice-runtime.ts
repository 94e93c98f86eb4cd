import type { PluginQueue } from '#plugin-api';
import type { VoiceContext } from './config.ts';
import { createVoiceGatewayClient, type VoiceGatewayClient } from './gateway-client.ts';
import { defineCallOutbox } from './call-outbox.ts';
import { parseVoices } from './voices.ts';

/**
 * What the target, the outbox and the routes of one plugin context share:
 * one pooled gateway client (none without a gateway configured), the
 * voices, and the verification-call outbox.
 */
export interface VoiceRuntime {
  readonly context: VoiceContext;
  /** Null while no gateway is configured. */
  readonly gateway: VoiceGatewayClient | null;
  readonly outbox: PluginQueue;
  readonly voices: ReadonlyMap<string, string>;
  /** `https://alerts.example/api/voice/status`: where the gateway posts a call's status, and what its signature is over. */
  readonly statusCallbackUrl: string;
  /** Where a key pressed in a call is posted. */
  readonly gatherUrl: string;
  /** The site's base URL and a request's path, as the gateway signed it. */
  signedUrl(path: string): string;
  close(): Promise<void>;
}

/** What placing a call needs: the outbox's share of the runtime. */
export type Calling = Pick<VoiceRuntime, 'context' | 'gateway' | 'voices' | 'statusCallbackUrl' | 'gatherUrl'>;

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
