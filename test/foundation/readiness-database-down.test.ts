import { describe, expect, it } from 'vitest';
import { provisionDatabase, postgresReachable } from '../helpers/databases.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { startTestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';

describe.runIf(await postgresReachable())('readiness with the database unreachable', () => {
  it('answers 503 once the database stops answering, while /health still answers', async () => {
    const database = await provisionDatabase('postgres');
    const upstream = new URL(database.connectionString!);
    const proxy = await startTcpProxy(upstream.hostname, Number(upstream.port || 5432));
    const viaProxy = new URL(database.connectionString!);
    viaProxy.port = String(proxy.port);
    const started = await startTestApp({
      pluginsDir: EVERY_INSTALLED_PLUGIN,
      database: { ...database, env: { ConnectionStrings__DefaultConnection: viaProxy.toString() } },
    });
    try {
      expect((await started.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      await proxy.cut();
      const response = await started.app.inject({ method: 'GET', url: '/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'not ready', checks: { database: 'failing', migrations: 'ok', plugins: 'ok' } });
      expect((await started.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await started.close().catch(() => undefined);
      await database.drop();
    }
  });
});
