import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuth, faultAnswer, jsonAnswer, signedCallbacks, twilioServer, type ScriptedAnswer } from '../twilio-api.ts';

/**
 * A local gateway speaking Twilio's Messages API, for the demo and the
 * tests: `POST /2010-04-01/Accounts/{sid}/Messages.json` with HTTP Basic
 * `sid:token`, form fields To, From or MessagingServiceSid, Body,
 * StatusCallback; 201 with a `sid`, or Twilio's error body `{code,
 * message, status}`. It keeps every text, answers scripted faults (400 with
 * a code, 429, 500) in turn, and sends what a phone and the carrier would:
 * replies and delivery reports, signed like Twilio (X-Twilio-Signature over
 * the public URL and the sorted fields, keyed by the auth token).
 */
export interface GatewayText {
  readonly sid: string;
  readonly to: string;
  readonly from: string;
  readonly body: string;
  readonly statusCallback?: string;
  readonly at: Date;
}

export interface GatewayReply {
  readonly from: string;
  readonly body: string;
  /** What the service texted back (the TwiML's message), or the status when it refused. */
  readonly answer: string;
  readonly status: number;
}

export type { ScriptedAnswer };

export interface TwilioGatewayOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** The number texts come from, and replies go to. */
  readonly number: string;
  /** The service's PublicBaseUrl: what callbacks are signed over. */
  readonly publicBaseUrl: string;
  /** Where the service really listens (callbacks are posted there); defaults to publicBaseUrl. */
  serviceUrl?: string;
  readonly port?: number;
}

export interface TwilioGateway {
  readonly url: string;
  readonly texts: GatewayText[];
  readonly replies: GatewayReply[];
  /** Requests refused for their credentials. */
  readonly unauthorized: number;
  /** Every send request, answered or refused (the bench counts them). */
  readonly requests: number;
  /** When each send request arrived (Date.now()), answered or refused: what the peer saw. */
  readonly arrivals: readonly number[];
  /** Send requests answered 429 because of the rate or a refusal window. */
  readonly throttled: number;
  /** The most send requests that arrived within any one second. */
  busiestSecond(): number;
  /** Answers every send this many milliseconds late (a slow gateway). */
  setLatency(ms: number): void;
  /**
   * Takes `perSecond` sends a second and answers 429 beyond (with Retry-After
   * when given), as a rate limiter does: a send may come up to one interval
   * early on the schedule the rate sets (so one late send followed by an on-
   * time one passes), never more. 0: no limit.
   */
  limit(perSecond: number, retryAfterSeconds?: number): void;
  /** Answers 429 to every send for the next `ms` milliseconds (with Retry-After when given). */
  refuseFor(ms: number, retryAfterSeconds?: number): void;
  /** Env entries pointing the service at this gateway. */
  readonly env: Record<string, string>;
  /** The next sends get these answers, in order (then 201 again). */
  script(...answers: ScriptedAnswer[]): void;
  /** Points callbacks at the service's real address once it listens. */
  setServiceUrl(url: string): void;
  /** A text from `from` to the service's number, as the carrier posts it. */
  reply(from: string, body: string, options?: { signature?: string }): Promise<GatewayReply>;
  /** A delivery report for a text (status delivered, undelivered, failed), as the carrier posts it. */
  report(sid: string, status: string, errorCode?: number): Promise<number>;
  textsTo(number: string): GatewayText[];
  close(): Promise<void>;
}

const newSid = (prefix: string) => prefix + randomBytes(16).toString('hex');
const twimlText = (xml: string) =>
  (/<Message>([\s\S]*)<\/Message>/.exec(xml)?.[1] ?? '').replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!,
  );

export async function startTwilioGateway(
  options: TwilioGatewayOptions,
  pages?: (gateway: TwilioGateway, req: http.IncomingMessage, res: http.ServerResponse, body: string) => boolean,
): Promise<TwilioGateway> {
  const texts: GatewayText[] = [];
  const replies: GatewayReply[] = [];
  const scripted: ScriptedAnswer[] = [];
  let unauthorized = 0;
  let requests = 0;
  let throttled = 0;
  let latencyMs = 0;
  let rate = { perSecond: 0, retryAfter: undefined as number | undefined };
  let refusal = { until: 0, retryAfter: undefined as number | undefined };
  const arrivals: number[] = [];
  /** When the next send is due at the rate (a GCRA's theoretical arrival time). */
  let dueAt = 0;
  const publicBase = options.publicBaseUrl.replace(/\/+$/, '');
  const messagesPath = `/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
  const authorized = basicAuth(options.accountSid, options.authToken);

  const callbacks = signedCallbacks(options.authToken, options.publicBaseUrl, options.serviceUrl);
  const postSigned = callbacks.post;

  let gateway!: TwilioGateway;
  const server = twilioServer(
    (req, res, body) => {
      if (req.method !== 'POST' || req.url !== messagesPath) return false;
      requests++;
      const arrived = Date.now();
      arrivals.push(arrived);
      if (latencyMs > 0) setTimeout(() => answerSend(req, res, body, arrived), latencyMs);
      else answerSend(req, res, body, arrived);
      return true;
    },
    pages && ((req, res, body) => pages(gateway, req, res, body)),
  );

  /** What the gateway answers one send: a refusal window or the rate first, then scripted faults, then 201. */
  function answerSend(req: http.IncomingMessage, res: http.ServerResponse, body: string, arrived: number) {
    if (!authorized(req, res)) return void unauthorized++;
    const form = Object.fromEntries(new URLSearchParams(body));
    if (!form.To || !form.Body || (!form.From && !form.MessagingServiceSid)) {
      return jsonAnswer(res, 400, { code: 21604, message: "A 'To', 'Body' and 'From' or 'MessagingServiceSid' are required", status: 400 });
    }
    const tooMany = (retryAfter: number | undefined) => {
      throttled++;
      return jsonAnswer(
        res,
        429,
        { code: 20429, message: 'Too Many Requests', status: 429 },
        retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
      );
    };
    if (arrived < refusal.until) return tooMany(refusal.retryAfter);
    if (rate.perSecond > 0) {
      const interval = 1000 / rate.perSecond;
      if (arrived < dueAt - interval) return tooMany(rate.retryAfter);
      dueAt = Math.max(dueAt, arrived) + interval;
    }
    const fault = scripted.shift();
    if (fault) return faultAnswer(res, fault);
    const text: GatewayText = {
      sid: newSid('SM'),
      to: form.To,
      from: form.From ?? options.number,
      body: form.Body,
      statusCallback: form.StatusCallback,
      at: new Date(),
    };
    texts.push(text);
    return jsonAnswer(res, 201, { sid: text.sid, status: 'queued', to: text.to, from: text.from, body: text.body });
  }
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  gateway = {
    url,
    texts,
    replies,
    get unauthorized() {
      return unauthorized;
    },
    get requests() {
      return requests;
    },
    arrivals,
    get throttled() {
      return throttled;
    },
    busiestSecond: () => busiestSecond(arrivals),
    setLatency: (ms) => void (latencyMs = ms),
    limit: (perSecond, retryAfter) => void (rate = { perSecond, retryAfter }),
    refuseFor: (ms, retryAfter) => void (refusal = { until: Date.now() + ms, retryAfter }),
    env: { Sms__BaseUrl: url, Sms__AccountSid: options.accountSid, Sms__AuthToken: options.authToken, Sms__From: options.number },
    script: (...answers) => void scripted.push(...answers),
    setServiceUrl: callbacks.setServiceUrl,
    async reply(from, body, replyOptions) {
      const fields = { From: from, To: options.number, Body: body, MessageSid: newSid('SM'), AccountSid: options.accountSid };
      const { status, text } = await postSigned(`${publicBase}/api/sms/inbound`, fields, replyOptions?.signature);
      const reply: GatewayReply = { from, body, status, answer: status === 200 ? twimlText(text) : text };
      replies.push(reply);
      return reply;
    },
    async report(sid, status, errorCode) {
      const text = texts.find((t) => t.sid === sid);
      if (!text?.statusCallback) throw new Error(`no text ${sid} with a StatusCallback`);
      const fields: Record<string, string> = { MessageSid: sid, MessageStatus: status, AccountSid: options.accountSid, To: text.to };
      if (errorCode !== undefined) fields.ErrorCode = String(errorCode);
      return (await postSigned(text.statusCallback, fields)).status;
    },
    textsTo: (number) => texts.filter((text) => text.to === number),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return gateway;
}

/** The most of these instants (milliseconds) that fall within any one second. */
export function busiestSecond(instants: readonly number[]): number {
  const sorted = [...instants].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}
