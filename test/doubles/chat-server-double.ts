import { createServer } from 'node:http';
import { listenOnLoopback } from '../../demo/web/loopback.ts';

export interface ChatMessage {
  readonly room: string;
  readonly text: string;
  readonly idempotencyKey: string | undefined;
}

export interface ChatServerDouble {
  readonly baseUrl: string;
  readonly token: string;
  /** Messages accepted, in order. */
  readonly messages: readonly ChatMessage[];
  /** The texts posted to one room (`#kandy-ops`). */
  textsOf(room: string): string[];
  /** The next `times` posts are answered `status` (and not stored). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

/**
 * The chat server the third-party delivery-chat fixture posts to, over real
 * HTTP on 127.0.0.1: POST /rooms/{room}/messages with `{ text }` and a
 * bearer token; 401 without the token, 400 without text, 201 otherwise.
 */
export async function startChatServerDouble(token = 'chat-token-0123456789'): Promise<ChatServerDouble> {
  const messages: ChatMessage[] = [];
  const faults: number[] = [];
  const server = createServer((request, response) => {
    const match = /^\/rooms\/([a-z0-9-]{1,50})\/messages$/.exec(request.url ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
      if (request.method !== 'POST' || !match) return answer(404);
      if (request.headers.authorization !== `Bearer ${token}`) return answer(401);
      const fault = faults.shift();
      if (fault !== undefined) return answer(fault);
      let body: { text?: unknown; idempotencyKey?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400);
      }
      if (typeof body.text !== 'string' || body.text === '') return answer(400);
      messages.push({ room: `#${match[1]}`, text: body.text, idempotencyKey: typeof body.idempotencyKey === 'string' ? body.idempotencyKey : undefined });
      return answer(201);
    });
  });
  const baseUrl = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  return {
    baseUrl,
    token,
    messages,
    textsOf: (room) => messages.filter((message) => message.room === room).map((message) => message.text),
    failNext: (status, times = 1) => {
      for (let i = 0; i < times; i += 1) faults.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
