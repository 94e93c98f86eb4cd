import { describe, expect, it } from 'vitest';
import { faultScene, type Peer } from './fault-scene.ts';

const AUDIENCE = { push: 300, sms: 100, email: 100, webpush: 60, webhook: 100 } as const;
const COUNT: Record<Peer, number> = { Push: AUDIENCE.push, Sms: AUDIENCE.sms, Email: AUDIENCE.email, WebPush: AUDIENCE.webpush, Webhook: AUDIENCE.webhook };
const PEERS: readonly Peer[] = ['Push', 'Sms', 'Email', 'WebPush', 'Webhook'];

describe('a peer that accepts connections and never answers', () => {
  it.each(PEERS)('%s: its lane stalls, every other lane delivers all, and nothing of the stalled lane is lost', async (silent) => {
    const scene = await faultScene({ audience: AUDIENCE, blackHole: silent });
    try {
      scene.spawn('one');
      scene.startOutage();
      const others = PEERS.filter((peer) => peer !== silent);
      const othersExpected = others.reduce((sum, peer) => sum + COUNT[peer], 0);
      await expect
        .poll(() => others.reduce((sum, peer) => sum + scene.reached(scene.prefixes[peer]), 0), { timeout: 60_000, interval: 100 })
        .toBe(othersExpected);
      // Received is not yet recorded: an email's ledger row is settled by the outbox just after the relay took it.
      for (const peer of others) await expect.poll(() => scene.states(peer), { timeout: 30_000, interval: 100 }).toEqual({ delivered: COUNT[peer] });
      const stalled = await scene.states(silent);
      console.log(
        `fault: ${silent} peer silent: the other ${others.length} lanes delivered ${othersExpected} of ${othersExpected}; ` +
          `${silent}: ${scene.reached(scene.prefixes[silent])} reached, its rows ${JSON.stringify(stalled)}`,
      );
      expect(scene.reached(scene.prefixes[silent])).toBe(0);
      // Every row of the stalled lane is still there, waiting or being tried again: none lost, none given up on yet.
      expect(Object.values(stalled).reduce((sum, n) => sum + n, 0)).toBe(COUNT[silent]);
      expect(Object.keys(stalled).every((state) => ['pending', 'retrying', 'delivering', 'queued'].includes(state))).toBe(true);
    } finally {
      await scene.close();
    }
  });
});
