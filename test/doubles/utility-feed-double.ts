import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FeedFault = 'http500' | 'badJson' | 'wrongShape' | 'slow';

export interface UtilityFeedDouble {
  baseUrl: string;
  apiKey: string;
  /** Requests per path, counted before faults and auth. */
  requests: Record<string, number>;
  /** Answers with ETag / 304 when true (default); false exercises the content-hash fallback. */
  etags: boolean;
  setPowerOutages(outages: unknown[]): void;
  setScheduledOutages(outages: unknown[]): void;
  /** The next `times` answers of any path fail this way (`slow`: wait `delayMs` first). */
  fault(kind: FeedFault, times?: number, delayMs?: number): void;
  close(): Promise<void>;
}

/**
 * The utility's feed API (contracts §7) over a real socket: GET
 * /power-outages and /scheduled-outages with X-Api-Key, ETag and 304, and
 * switchable faults for the "a bad answer fails that poll only" tests.
 */
export async function startUtilityFeedDouble(apiKey = 'feed-key-0123456789'): Promise<UtilityFeedDouble> {
  const bodies: Record<string, string> = {
    '/power-outages': JSON.stringify({ outages: [] }),
    '/scheduled-outages': JSON.stringify({ outages: [] }),
  };
  const faults: Array<{ kind: FeedFault; delayMs: number }> = [];
  const double: Omit<UtilityFeedDouble, 'baseUrl' | 'close'> = {
    apiKey,
    requests: {},
    etags: true,
    setPowerOutages: (outages) => void (bodies['/power-outages'] = JSON.stringify({ outages, generatedBy: 'utility-feed-double' })),
    setScheduledOutages: (outages) => void (bodies['/scheduled-outages'] = JSON.stringify({ outages })),
    fault: (kind, times = 1, delayMs = 0) => {
      for (let i = 0; i < times; i += 1) faults.push({ kind, delayMs });
    },
  };
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    double.requests[path] = (double.requests[path] ?? 0) + 1;
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' || !(path in bodies)) return send(404, '{"error":"not found"}');
    if (req.headers['x-api-key'] !== apiKey) return send(401, '{"error":"bad api key"}');
    const fault = faults.shift();
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.kind === 'http500') return send(500, '{"error":"internal"}');
    if (fault?.kind === 'badJson') return send(200, '{"outages": [ {"id": ');
    if (fault?.kind === 'wrongShape') return send(200, JSON.stringify({ outages: [{ id: 42, feeder: null }] }));
    const body = bodies[path];
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (double.etags && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      return res.end();
    }
    send(200, body, double.etags ? { etag } : {});
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(double, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as UtilityFeedDouble;
}
