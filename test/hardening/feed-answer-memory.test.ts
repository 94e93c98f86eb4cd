import { describe, expect, it } from 'vitest';
import { memoryMiB } from '../../bench/e2e/measure.ts';
import { startServiceProcess } from '../../demo/service-process.ts';
import { freeLoopbackPort } from '../../demo/web/loopback.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { postgresReachable, provisionDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, killTestEnv } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { childEnv } from '../helpers/child-env.ts';

const MIB = 1024 * 1024;

/**
 * Contracts §13, measured on the real process (`npm start`'s flags, on
 * PostgreSQL: the embedded database alone takes 250 MB): a 60 MiB answer,
 * chunked (no Content-Length to refuse it by), against the default
 * PowerOutages__MaxAnswerBytes of 10 MiB. The read stops at the limit, the
 * poll fails saying so, and the process's peak memory stays under 300 MB.
 */
describe.runIf(await postgresReachable())('a 60 MiB chunked feed answer', () => {
  it('keeps the service under 300 MB at its peak, fails that poll saying why, and the service goes on', async () => {
    const database = await provisionDatabase('postgres');
    const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    const port = await freeLoopbackPort();
    const serviceUrl = `http://127.0.0.1:${port}`;
    const output: string[] = [];
    feed.huge(60 * MIB);
    const service = startServiceProcess(
      {
        ...childEnv(),
        // Every shipped plugin, as npm start loads them.
        ...killTestEnv(feed, push, database.env, { Server__Port: String(port), Logging__Level: 'warn' }),
      },
      serviceUrl,
      (chunk) => void output.push(chunk.toString()),
    );
    try {
      await service.ready;
      const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
      const health = async () => {
        const feeds = (await (await fetch(`${serviceUrl}/api/admin/feeds`, { headers: admin })).json()) as Array<{
          id: string;
          lastError: { message: string } | null;
        }>;
        return feeds.find((entry) => entry.id === 'utility.power-outages')?.lastError?.message ?? null;
      };
      // The poll made at start meets the huge answer.
      await expect
        .poll(health, { timeout: 60_000, interval: 250 })
        .toBe("utility-power-outages: the answer is larger than 10485760 bytes (the feed's MaxAnswerBytes)");
      const { peak } = memoryMiB(service.pid!);
      expect(feed.sent.finished).toBe(false);
      expect(feed.sent.bytes).toBeLessThan(30 * MIB);
      expect(peak, `peak RSS ${peak.toFixed(0)} MiB`).toBeLessThan(300);
      expect((await fetch(`${serviceUrl}/health/ready`)).status).toBe(200);
    } finally {
      await service.stop();
      await Promise.all([feed.close(), push.close()]);
      await database.drop();
    }
    expect(output.join('')).not.toMatch(/heap out of memory/);
  }, 120_000);
});
