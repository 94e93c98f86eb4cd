/**
 * `node bench/e2e/floor-check.ts` (N=100000, CONNECTIONS=16): the raw POST
 * rate this machine gets from bench:e2e's sink over the same number of
 * connections with each of the floor's settings (requests in flight, HTTP
 * pipelining). bench:e2e takes the fastest of the same settings as its
 * floor. Each setting runs twice; the best of the two counts.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FLOOR_SETTINGS } from './floor-settings.ts';
import { rawPosts } from './raw-posts.ts';

const N = Number(process.env.N ?? 100_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const TOKEN = 'tk_benchbenchbenchbenchbenchbenc';

const sink = spawn(process.execPath, ['bench/e2e/push-sink.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const port = await new Promise<number>((resolve) => createInterface({ input: sink.stdout! }).once('line', (line) => resolve(JSON.parse(line).port)));
  const sinkUrl = `http://127.0.0.1:${port}`;
  await rawPosts({ sinkUrl, token: TOKEN, n: 10_000, connections: CONNECTIONS, inFlight: 256, pipelining: 1 }); // warm-up
  console.log(`raw POSTs to the bench sink, ${N.toLocaleString('en')} each, ${CONNECTIONS} connections, node ${process.version}`);
  for (const { inFlight, pipelining } of FLOOR_SETTINGS(CONNECTIONS)) {
    const runs = [];
    for (let i = 0; i < 2; i += 1) runs.push(await rawPosts({ sinkUrl, token: TOKEN, n: N, connections: CONNECTIONS, inFlight, pipelining }));
    const best = runs.sort((a, b) => a.seconds - b.seconds)[0];
    console.log(
      `in flight ${String(inFlight).padStart(5)}, pipelining ${String(pipelining).padStart(2)}: ${best.seconds.toFixed(2)} s (${Math.round(N / best.seconds)}/s), client ${((best.clientCpu * 1e6) / N).toFixed(1)} µs CPU per POST`,
    );
  }
} finally {
  sink.kill('SIGTERM');
}
