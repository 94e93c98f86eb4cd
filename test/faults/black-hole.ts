import net from 'node:net';
import { listenOnLoopback } from '../../demo/web/loopback.ts';

/** A peer that accepts connections and never says a word: requests to it are never answered, and never refused. */
export async function startBlackHole(): Promise<{ url: string; readonly connections: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return sockets.size;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
