import { Pool } from 'undici';
import { inParallel } from './measure.ts';

/** The floor's raw client: N JSON publishes to the sink over `connections` keep-alive connections, as fast as undici goes. */
export interface RawPostOptions {
  readonly sinkUrl: string;
  readonly token: string;
  readonly n: number;
  readonly connections: number;
  /** Requests in flight, across the connections. */
  readonly inFlight: number;
  /** HTTP/1.1 requests sent on one connection before their answers (undici's `pipelining`); 1: none. */
  readonly pipelining: number;
}

/** Seconds and client CPU seconds for the N POSTs. */
export async function rawPosts(options: RawPostOptions): Promise<{ seconds: number; clientCpu: number }> {
  const pool = new Pool(options.sinkUrl, { connections: options.connections, pipelining: options.pipelining });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  try {
    await inParallel(options.n, options.inFlight, async (index) => {
      const response = await pool.request({
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: JSON.stringify({
          topic: `alerts-bench-${index}`,
          title: 'Power outage: Kandy, Peradeniya',
          message: 'Feeder: F12\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 GMT+5:30\nCause: Fallen line',
          priority: 4,
          tags: ['warning', 'electric_plug'],
          sequence_id: 'po-PO-BENCH',
        }),
      });
      await response.body.dump();
    });
  } finally {
    await pool.close();
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, clientCpu: (cpu.user + cpu.system) / 1e6 };
}
