import net from 'node:net';
import { startSmtpReceiver, type SmtpReply } from '../../demo/mail-inbox/smtp-receiver.ts';
import { parseEmail, type ParsedEmail } from './smtp-message.ts';

/**
 * An SMTP relay for tests: the demo's SMTP receiver behind a loopback front port, AUTH
 * required (PLAIN or LOGIN, the API key as password, no TLS), every
 * accepted message kept and parsed. Faults: refuse messages with a 4xx or
 * 5xx reply, hang after DATA (the message is never accepted), or go down
 * (the port refuses connections) and come back on the same port.
 */
export const SMTP_USER = 'relay-user';
export const SMTP_API_KEY = 'smtp-api-key-0123456789';

export interface ReceivedEmail extends ParsedEmail {
  readonly envelopeFrom: string;
  readonly envelopeTo: readonly string[];
  readonly raw: string;
  readonly user: string | undefined;
}

export type SmtpFault = { kind: 'reject'; code: number; message?: string } | { kind: 'hang' };

export interface SmtpDouble {
  readonly host: string;
  readonly port: number;
  /** Env entries pointing the service at this relay. */
  readonly env: Record<string, string>;
  readonly messages: ReceivedEmail[];
  /** Messages accepted so far (kept or not). */
  readonly accepted: number;
  /** Refused authentications (wrong user or key). */
  readonly authFailures: number;
  /** Messages held by a `hang` fault right now (their DATA is in, no reply given). */
  readonly hungCount: number;
  /** The next `count` messages (or all while count is Infinity) meet this fault at DATA. */
  failNext(fault: SmtpFault, count?: number): void;
  /** Back to accepting everything (and releases hung messages as refused). */
  heal(): void;
  /** The port refuses connections and open connections are cut. */
  down(): Promise<void>;
  /** Connections are accepted and then nothing is ever said (no greeting): a relay that hangs. */
  blackhole(on: boolean): void;
  up(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

export interface SmtpDoubleOptions {
  user?: string;
  apiKey?: string;
  /** false: count accepted messages without keeping or parsing them (benchmarks). */
  keep?: boolean;
}

export async function startSmtpDouble(options: SmtpDoubleOptions = {}): Promise<SmtpDouble> {
  const user = options.user ?? SMTP_USER;
  const apiKey = options.apiKey ?? SMTP_API_KEY;
  const messages: ReceivedEmail[] = [];
  const keep = options.keep !== false;
  let accepted = 0;
  let authFailures = 0;
  let fault: SmtpFault | null = null;
  let faultCount = 0;
  const hung = new Set<SmtpReply>();

  const receiver = await startSmtpReceiver({
    keepBodies: keep,
    checkLogin: (username, password) => username === user && password === apiKey,
    onLoginRefused: () => void authFailures++,
    onMessage(message, reply) {
      const current = faultCount > 0 ? fault : null;
      if (current) faultCount--;
      if (current?.kind === 'hang') {
        hung.add(reply);
        return;
      }
      if (current?.kind === 'reject') {
        return reply(Object.assign(new Error(current.message ?? 'Refused by the test relay'), { responseCode: current.code }));
      }
      accepted++;
      if (keep) {
        const raw = message.raw.toString('utf8');
        messages.push({ ...parseEmail(raw), raw, envelopeFrom: message.envelopeFrom, envelopeTo: message.envelopeTo, user: message.user });
      }
      reply(null, `Queued as ${accepted}`);
    },
  });
  const innerPort = receiver.port;

  // The front port: what the service connects to, and what goes down.
  const sockets = new Set<net.Socket>();
  let silent = false;
  const front = net.createServer((client) => {
    if (silent) {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(innerPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      // SMTP is a dialogue of small writes: Nagle plus delayed ACKs would stall each reply ~40 ms.
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const port = (front.address() as net.AddressInfo).port;
  let listening = true;

  const releaseHung = () => {
    for (const callback of hung) callback(Object.assign(new Error('Released'), { responseCode: 451 }));
    hung.clear();
  };

  return {
    host: '127.0.0.1',
    port,
    env: {
      EmailProvider__Host: '127.0.0.1',
      EmailProvider__Port: String(port),
      EmailProvider__Secure: 'false',
      EmailProvider__Username: user,
      EmailProvider__ApiKey: apiKey,
      EmailProvider__From: 'Outage alerts <alerts@example.net>',
    },
    messages,
    get authFailures() {
      return authFailures;
    },
    get accepted() {
      return accepted;
    },
    get hungCount() {
      return hung.size;
    },
    failNext(next, count = 1) {
      fault = next;
      faultCount = count;
    },
    heal() {
      fault = null;
      faultCount = 0;
      releaseHung();
    },
    async down() {
      if (!listening) return;
      listening = false;
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    blackhole(on) {
      silent = on;
      if (!on) for (const socket of sockets) socket.destroy();
    },
    async up() {
      if (listening) return;
      await new Promise<void>((resolve, reject) => {
        front.once('error', reject);
        front.listen(port, '127.0.0.1', () => {
          front.off('error', reject);
          resolve();
        });
      });
      listening = true;
    },
    reset() {
      silent = false;
      accepted = 0;
      messages.length = 0;
      authFailures = 0;
      fault = null;
      faultCount = 0;
    },
    async close() {
      releaseHung();
      if (listening) await new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await receiver.close();
    },
  };
}
