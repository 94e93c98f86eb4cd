import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A browser push service for tests (RFC 8030), over a real socket. It
 * hands out subscriptions the way a browser makes them (a P-256 key pair
 * and an auth secret per subscriber), and for each push: checks the VAPID
 * token (RFC 8292: `vapid t=<JWT>, k=<key>`, ES256 over the key, `aud` its
 * own origin, `exp` within 24 hours, a `sub`), decrypts the `aes128gcm`
 * payload with the subscriber's private key and auth secret (RFC 8291,
 * node:crypto only), keeps it with its TTL, Urgency and Topic, and answers
 * 201, or what a test scripted for that subscriber (404, 410, 429, 500…).
 */
export interface ReceivedPush {
  readonly subscriber: string;
  /** When it came. */
  readonly at: Date;
  readonly payload: string;
  readonly ttl: string | undefined;
  readonly urgency: string | undefined;
  readonly topic: string | undefined;
  readonly vapid: { readonly sub: string; readonly aud: string; readonly exp: number; readonly k: string };
}

export interface BrowserSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

export interface PushServiceDouble {
  readonly url: string;
  readonly received: ReceivedPush[];
  /** Pushes refused for their VAPID token or their encryption, with why. */
  readonly refused: string[];
  subscribe(name: string): BrowserSubscription;
  script(name: string, ...answers: Array<{ status: number; retryAfter?: number }>): void;
  to(name: string): ReceivedPush[];
  close(): Promise<void>;
}

const b64 = (value: string) => Buffer.from(value, 'base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188: the plaintext of one aes128gcm record, for this subscriber's keys. */
export function decryptAes128gcm(body: Buffer, subscriber: { privateKey: Buffer; publicKey: Buffer; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(subscriber.privateKey);
  const shared = ecdh.computeSecret(serverPublic);
  const prkKey = hmac(subscriber.auth, shared);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, serverPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: the VAPID token's claims, once its ES256 signature verifies with the key it names. */
export function checkVapid(authorization: string | undefined, origin: string, nowSeconds: number): { sub: string; aud: string; exp: number; k: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error('no vapid Authorization');
  const [token, k] = [match[1]!, match[2]!];
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature) throw new Error('not a JWT');
  if (JSON.parse(b64(header).toString()).alg !== 'ES256') throw new Error('not ES256');
  const point = b64(k);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  if (!verifySignature('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, b64(signature))) throw new Error('bad signature');
  const body = JSON.parse(b64(claims).toString()) as { aud?: string; exp?: number; sub?: string };
  if (body.aud !== origin) throw new Error(`aud ${body.aud} is not ${origin}`);
  if (typeof body.exp !== 'number' || body.exp <= nowSeconds || body.exp > nowSeconds + 24 * 3600) throw new Error('exp out of range');
  if (typeof body.sub !== 'string' || !/^(mailto:|https:)/.test(body.sub)) throw new Error('no sub');
  return { sub: body.sub, aud: body.aud, exp: body.exp, k };
}

/**
 * `check: false` (benchmarks): pushes are counted, not verified or decrypted, so the double's own CPU stays small.
 * `pages` (the demo): serves other requests (its page) before the 404.
 */
export async function startPushServiceDouble(
  options: { now?: () => Date; check?: boolean; pages?: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => boolean } = {},
): Promise<PushServiceDouble> {
  const now = options.now ?? (() => new Date());
  const subscribers = new Map<string, { privateKey: Buffer; publicKey: Buffer; auth: Buffer }>();
  const scripted = new Map<string, Array<{ status: number; retryAfter?: number }>>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let origin = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const name = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
      const subscriber = name ? subscribers.get(name) : undefined;
      if (req.method !== 'POST' || !name || !subscriber) {
        if (options.pages?.(req, res, Buffer.concat(chunks).toString('utf8'))) return;
        return res.writeHead(404).end();
      }
      if (options.check === false) {
        received.push({
          subscriber: name,
          at: new Date(),
          payload: '',
          ttl: undefined,
          urgency: undefined,
          topic: undefined,
          vapid: { sub: '', aud: '', exp: 0, k: '' },
        });
        return res.writeHead(201).end();
      }
      try {
        const vapid = checkVapid(req.headers.authorization, origin, Math.floor(now().getTime() / 1000));
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const payload = decryptAes128gcm(Buffer.concat(chunks), subscriber);
        const answer = scripted.get(name)?.shift() ?? { status: 201 };
        if (answer.status === 201) {
          const header = (h: string) => (typeof req.headers[h] === 'string' ? (req.headers[h] as string) : undefined);
          received.push({ subscriber: name, at: new Date(), payload, ttl: header('ttl'), urgency: header('urgency'), topic: header('topic'), vapid });
        }
        res.writeHead(answer.status, answer.retryAfter === undefined ? {} : { 'retry-after': String(answer.retryAfter) }).end();
      } catch (err) {
        refused.push(`${name}: ${(err as Error).message}`);
        res.writeHead(403).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    received,
    refused,
    subscribe(name) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(name, { privateKey: ecdh.getPrivateKey(), publicKey, auth });
      return { endpoint: `${origin}/push/${name}`, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } };
    },
    script: (name, ...answers) => void scripted.set(name, [...(scripted.get(name) ?? []), ...answers]),
    to: (name) => received.filter((push) => push.subscriber === name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
