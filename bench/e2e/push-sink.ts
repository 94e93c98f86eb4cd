/**
 * A lean ntfy-compatible publish sink in a process of its own, for
 * `npm run bench:e2e`: it answers every JSON publish (`POST /`) with 200 and
 * the message object's essentials, counts publishes and distinct
 * (topic, sequence_id) pairs, and keeps the wall-clock time of the first
 * and last. `GET /stats` reports them; `POST /reset` forgets them. Prints
 * `{"port":…}` on its first line once it listens.
 */
import http from 'node:http';

let publishes = 0;
let first = 0;
let last = 0;
let distinct = new Set<string>();
const wallClock = () => performance.timeOrigin + performance.now();

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ publishes, distinct: distinct.size, first, last }));
  }
  if (req.method === 'POST' && req.url === '/reset') {
    publishes = 0;
    first = 0;
    last = 0;
    distinct = new Set();
    res.writeHead(204);
    return res.end();
  }
  if (req.method !== 'POST' || req.url !== '/') {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end('{"code":40401,"http":404,"error":"page not found"}');
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = wallClock();
    let topic = '';
    let sequence = '';
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { topic?: string; sequence_id?: string };
      topic = body.topic ?? '';
      sequence = body.sequence_id ?? '';
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end('{"code":40024,"http":400,"error":"invalid request: body must be JSON"}');
    }
    publishes += 1;
    if (first === 0) first = at;
    last = at;
    distinct.add(`${topic}\u0000${sequence}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"id":"bench${publishes}","time":${Math.floor(at / 1000)},"event":"message","topic":${JSON.stringify(topic)}}`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
