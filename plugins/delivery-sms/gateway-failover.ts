import type { BatchAbort, GatewayClient, OutgoingText } from './gateway-client.ts';
import type { GatewayResult } from './gateway-result.ts';

/** How long a gateway that was down is tried only after the others. */
export const DOWN_FOR_MS = 60_000;

/**
 * Whether a send says its gateway is down (pure): it refused the
 * connection or could not be reached, answered 5xx, refused its
 * credentials (401/403), or did not answer in time. A 429 is not down: it
 * is the lane's to slow down for; any other answer is about the text.
 */
export function gatewayDown(result: GatewayResult): boolean {
  if (result.kind === 'network' || result.kind === 'timeout') return true;
  return result.kind === 'answered' && (result.status >= 500 || result.status === 401 || result.status === 403);
}

/**
 * Whether the same text may go to the next gateway at once (pure): only
 * when this one surely did not take it. After a timeout it may have, so
 * that text waits for its retry (which the next gateway then takes) rather
 * than risk two copies now.
 */
export function mayTryNext(result: GatewayResult): boolean {
  return gatewayDown(result) && result.kind !== 'timeout';
}

/** The order to try gateways in (pure): those not down in their order, then the down ones, the soonest back first. */
export function tryOrder(names: readonly string[], downUntil: ReadonlyMap<string, number>, now: number): string[] {
  const isDown = (name: string) => (downUntil.get(name) ?? 0) > now;
  const down = names.filter(isDown).sort((a, b) => downUntil.get(a)! - downUntil.get(b)!);
  return [...names.filter((name) => !isDown(name)), ...down];
}

export interface NamedGateway {
  readonly name: string;
  readonly client: GatewayClient;
}

/**
 * Several gateways as one: each text goes to the first gateway not down;
 * one that is down (gatewayDown) is tried after the others for
 * DOWN_FOR_MS, and the text goes on to the next at once when the first
 * surely did not take it (mayTryNext). One gateway: that gateway, as is.
 */
export function failoverClient(
  gateways: readonly NamedGateway[],
  options: { now: () => number; onDown: (name: string, result: GatewayResult) => void },
): GatewayClient {
  if (gateways.length === 1) return gateways[0]!.client;
  const byName = new Map(gateways.map((gateway) => [gateway.name, gateway.client]));
  const names = gateways.map((gateway) => gateway.name);
  const downUntil = new Map<string, number>();
  return {
    async send(text: OutgoingText, abort?: BatchAbort) {
      let result: GatewayResult = { kind: 'aborted' };
      for (const name of tryOrder(names, downUntil, options.now())) {
        result = await byName.get(name)!.send(text, abort);
        if (result.kind === 'aborted') return result;
        if (!gatewayDown(result)) {
          downUntil.delete(name);
          return result;
        }
        if (!downUntil.has(name) || downUntil.get(name)! <= options.now()) options.onDown(name, result);
        downUntil.set(name, options.now() + DOWN_FOR_MS);
        if (!mayTryNext(result)) return result;
      }
      return result;
    },
    close: async () => void (await Promise.all(gateways.map((gateway) => gateway.client.close()))),
  };
}
