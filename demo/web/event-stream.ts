import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Server-sent events for a live page: each client first gets every item so
 * far (the page drops what it already has, as EventSource reconnects), then
 * each new one. Items are JSON texts; the stream never carries HTML.
 */
export interface EventHub {
  connect(req: IncomingMessage, res: ServerResponse, backlog: Iterable<string>): void;
  publish(json: string): void;
  closeAll(): void;
}

const KEEP_ALIVE_MS = 15_000;

export function createEventHub(): EventHub {
  const clients = new Set<ServerResponse>();
  const keepAlive = setInterval(() => {
    for (const res of clients) res.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  const frame = (json: string) => `data: ${json}\n\n`;
  return {
    connect(req, res, backlog) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.write('retry: 2000\n\n');
      for (const json of backlog) res.write(frame(json));
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    publish(json) {
      for (const res of clients) res.write(frame(json));
    },
    closeAll() {
      clearInterval(keepAlive);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
