import net from 'node:net';
import { listenOnLoopback } from '../../demo/web/loopback.ts';

export interface TcpProxy {
  readonly port: number;
  /**
   * Cuts the path off: nothing passes either way, and new connections are
   * taken and left waiting, as when a network partition drops the packets
   * (no reset: each side's connection still looks open).
   */
  stall(): void;
  /** The path is back: what waited flows on. */
  heal(): void;
  close(): Promise<void>;
}

/** A TCP proxy to 127.0.0.1:`targetPort` the test controls: a partition between one instance and PostgreSQL. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let stalled = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const waiting = new Set<() => void>();
  const server = net.createServer((client) => {
    const connect = () => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      const pair = { client, upstream };
      pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    };
    // Paused until piped (pipe resumes it): nothing it sends meanwhile is read, and so none is dropped.
    client.pause();
    if (stalled) waiting.add(connect);
    else connect();
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    stall() {
      stalled = true;
      // Unpiped: bytes stay in the sockets' buffers (and the kernel's), nothing is delivered, nothing is lost or reset.
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    heal() {
      stalled = false;
      for (const { client, upstream } of pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
        upstream.resume();
      }
      for (const connect of waiting) connect();
      waiting.clear();
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
