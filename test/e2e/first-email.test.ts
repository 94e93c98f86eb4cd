import { describe, expect, it } from 'vitest';
import { startServiceProcess } from '../../demo/service-process.ts';
import { freeLoopbackPort } from '../../demo/web/loopback.ts';
import { startSmtpDouble } from '../doubles/smtp-double.ts';
import { childEnv } from '../helpers/child-env.ts';
import { preferredKind, provisionDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';

/**
 * The first email after a start must not stall the service: MJML (most of
 * a second to load, blocking the event loop) is loaded and the templates
 * compiled before the service listens. Seen in the real process's own log
 * (each compile is a debug line): every compile comes before it listens,
 * and the first email compiles nothing. No timing: a loaded machine cannot
 * turn it red, and a compile moved back onto the send path always does.
 */
describe('the first email after a start', () => {
  it('is made without holding the event loop: the templates were compiled before the service listened', async () => {
    const database = await provisionDatabase(await preferredKind());
    const smtp = await startSmtpDouble();
    const port = await freeLoopbackPort();
    const serviceUrl = `http://127.0.0.1:${port}`;
    const output: string[] = [];
    const service = startServiceProcess(
      { ...childEnv(), ...database.env, ...smtp.env, Server__Port: String(port), PublicBaseUrl: serviceUrl, NODE_ENV: 'production', Logging__Level: 'debug' },
      serviceUrl,
      (chunk) => void output.push(chunk.toString()),
      { pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-email']) },
    );
    try {
      await service.ready;
      const lines = () => output.join('').split('\n');
      const compiles = (from: number) =>
        lines()
          .slice(from)
          .filter((line) => line.includes('"msg":"email template compiled"')).length;
      const compiled = lines().findIndex((line) => line.includes('"msg":"email templates compiled"'));
      const listening = lines().findIndex((line) => line.includes('Server listening'));
      expect(compiled).toBeGreaterThanOrEqual(0);
      expect(compiled).toBeLessThan(listening);
      // The verification email's and the notification's layouts, compiled at start.
      expect(compiles(0)).toBe(2);
      expect(compiles(listening)).toBe(0);
      const created = await fetch(`${serviceUrl}/api/notification-subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'Home', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: 'first@example.org' } }),
      });
      expect(created.status).toBe(201);
      await expect.poll(() => smtp.messages.length, { timeout: 20_000, interval: 100 }).toBe(1);
      // The verification email was made from the layout compiled at start: no compile on the send path.
      expect(compiles(listening)).toBe(0);
    } finally {
      await service.stop();
      await smtp.close();
      await database.drop();
    }
  }, 120_000);
});
