import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

/** What a raw socket got back before the server closed it (or the wait ran out). */
function sendRaw(port: number, data: string, waitMs: number): Promise<{ received: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedByServer: false });
    }, waitMs);
    socket.on('connect', () => socket.write(data));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closedByServer: true });
    });
  });
}

/**
 * A client that trickles its request, a byte every 100 ms so the socket is never idle: how long the
 * server lets it run before it answers (or closes), in ms, up to `boundMs`.
 */
function trickle(port: number, head: string, boundMs: number): Promise<{ ms: number; received: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    const data = head + 'x'.repeat(10_000);
    const drip = setInterval(() => socket.write(data[sent++ % data.length]!), 100);
    const done = () => {
      clearInterval(drip);
      clearTimeout(bound);
      socket.destroy();
      resolve({ ms: performance.now() - started, received });
    };
    const bound = setTimeout(done, boundMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
  });
}

/** A body that never fully arrives is answered 408 or closed within Server__RequestTimeoutSeconds. */
describe('request timeout, over a real socket', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let port: number;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false, env: { Server__RequestTimeoutSeconds: '1' } });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    port = (started.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('answers 408 (or closes) a request whose body stops short of its Content-Length', async () => {
    const head = 'POST /api/notification-subscriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    // Generous: the limit is 1 s; the bound only keeps a broken server from hanging the suite.
    const { received, closedByServer } = await sendRaw(port, `${head}{"dis`, 20_000);
    expect(closedByServer).toBe(true);
    if (received !== '') {
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      // The usual error shape, with a code, like every other answer.
      expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({
        statusCode: 408,
        code: 'NP_REQUEST_TIMEOUT',
        error: 'Request Timeout',
      });
    }
    expect(await servicesOf(started.app).database.knex('notification_subscriptions').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('answers 408 (or closes) a request whose headers never end', async () => {
    const { closedByServer } = await sendRaw(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n', 20_000);
    expect(closedByServer).toBe(true);
  });

  // Node looks for requests over the limit every connectionsCheckingInterval (30 s by its default): the service sets it from
  // the limit, so a trickling client is cut off about when the limit says, not up to half a minute later.
  it('cuts off a client that trickles its headers, or its body, about when the limit says', async () => {
    for (const head of [
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
      'POST /api/notification-subscriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
    ]) {
      const { ms, received } = await trickle(port, head, 12_000);
      // The limit is 1 s, checked every 250 ms; 6 s leaves a loaded machine room and is far below Node's own 30 s.
      expect(ms, head).toBeLessThan(6_000);
      if (received !== '') expect(received, head).toMatch(/^HTTP\/1\.1 408 /);
    }
  }, 40_000);

  it('answers bytes that are not HTTP with 400 in the usual error shape', async () => {
    const { received, closedByServer } = await sendRaw(port, 'NOT HTTP AT ALL\r\n\r\n', 20_000);
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 400,
      code: 'NP_BAD_REQUEST',
      error: 'Bad Request',
      message: 'the request is not valid HTTP',
    });
  });

  it('answers a NUL byte in a header with 400 (the HTTP parser refuses it before any route), storing nothing', async () => {
    const body = JSON.stringify({ displayName: 'Kandy', feedId: 'utility.power-outages', delivery: { provider: 'Push' } });
    const head = `POST /api/notification-subscriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Subscription-Token: a\u0000b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { received } = await sendRaw(port, head + body, 20_000);
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 400, code: 'NP_BAD_REQUEST' });
    expect(await servicesOf(started.app).database.knex('notification_subscriptions').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('still answers a request that arrives in time', async () => {
    const { received } = await sendRaw(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 20_000);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });
});
