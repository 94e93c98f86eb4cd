import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { basicAuth, faultAnswer, jsonAnswer, signedCallbacks, twilioServer, type ScriptedAnswer } from '../twilio-api.ts';

/**
 * A local gateway speaking Twilio's Voice API, for the demo and the tests:
 * `POST /2010-04-01/Accounts/{sid}/Calls.json` with HTTP Basic `sid:token`
 * and form fields To, From, Twiml, StatusCallback; 201 with a `sid`, or
 * Twilio's error body `{code, message, status}` (401 for a bad credential,
 * 400 for TwiML that a real XML parser refuses). It keeps every call with
 * what it says, parsed from the TwiML, and does what the phone network and
 * the person would: a call's status, and a key pressed, posted to the
 * service signed like Twilio (X-Twilio-Signature over the public URL and
 * the sorted fields, keyed by the auth token).
 */
export interface SaidLine {
  readonly text: string;
  /** The `<Say language>` it is read in. */
  readonly language: string;
}

export interface GatewayCall {
  readonly sid: string;
  readonly to: string;
  readonly from: string;
  readonly twiml: string;
  /** What the call says, in order (inside its Gather too). */
  readonly said: readonly SaidLine[];
  /** Where a key goes, when the call asks for one (`<Gather numDigits="1" action>`). */
  readonly gather?: { readonly action: string; readonly numDigits: number };
  readonly statusCallback?: string;
  readonly at: Date;
}

export type { ScriptedAnswer };

export interface VoiceGatewayOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** The number calls come from. */
  readonly number: string;
  /** The service's PublicBaseUrl: what callbacks are signed over. */
  readonly publicBaseUrl: string;
  readonly port?: number;
}

export interface VoiceGateway {
  readonly url: string;
  readonly calls: GatewayCall[];
  /** Requests refused for their credentials. */
  readonly unauthorized: number;
  /** Requests refused because their TwiML did not parse. */
  readonly badTwiml: number;
  /** Env entries pointing the service at this gateway. */
  readonly env: Record<string, string>;
  /** The next call requests get these answers, in order (then 201 again). */
  script(...answers: ScriptedAnswer[]): void;
  /** Points callbacks at the service's real address once it listens. */
  setServiceUrl(url: string): void;
  /** The call's status, as the network posts it (completed, busy, no-answer, failed). */
  status(sid: string, status: string, options?: { signature?: string }): Promise<number>;
  /** The person presses keys in the call: posted to its Gather's action; what the call then says. */
  press(sid: string, digits: string, options?: { signature?: string }): Promise<{ status: number; said: readonly SaidLine[] }>;
  callsTo(number: string): GatewayCall[];
  close(): Promise<void>;
}

const newSid = () => `CA${randomBytes(16).toString('hex')}`;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'text',
  preserveOrder: false,
  isArray: (name) => name === 'Say',
});

type SayNode = { text?: string | number; language?: string };
const lines = (says: SayNode[] | undefined): SaidLine[] => (says ?? []).map((say) => ({ text: String(say.text ?? ''), language: say.language ?? 'en-US' }));

/** What a TwiML document says and asks, read with a real XML parser; null when it is not TwiML. */
export function readTwiml(twiml: string): { said: SaidLine[]; gather?: { action: string; numDigits: number } } | null {
  if (XMLValidator.validate(twiml) !== true) return null;
  const response = parser.parse(twiml).Response as { Say?: SayNode[]; Gather?: { Say?: SayNode[]; action?: string; numDigits?: string } } | undefined;
  if (response === undefined) return null;
  const gathered = response.Gather;
  const said = [...lines(gathered?.Say), ...lines(response.Say)];
  return gathered?.action ? { said, gather: { action: gathered.action, numDigits: Number(gathered.numDigits ?? 1) } } : { said };
}

export async function startVoiceGateway(
  options: VoiceGatewayOptions,
  pages?: (gateway: VoiceGateway, req: http.IncomingMessage, res: http.ServerResponse, body: string) => boolean,
): Promise<VoiceGateway> {
  const calls: GatewayCall[] = [];
  const scripted: ScriptedAnswer[] = [];
  let unauthorized = 0;
  let badTwiml = 0;
  const callbacks = signedCallbacks(options.authToken, options.publicBaseUrl);
  const postSigned = callbacks.post;
  const callsPath = `/2010-04-01/Accounts/${options.accountSid}/Calls.json`;
  const authorized = basicAuth(options.accountSid, options.authToken);

  function placeCall(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    if (!authorized(req, res)) return void unauthorized++;
    const form = Object.fromEntries(new URLSearchParams(body));
    if (!form.To || !form.From || !form.Twiml) return jsonAnswer(res, 400, { code: 21205, message: "A 'To', 'From' and 'Twiml' are required", status: 400 });
    const read = readTwiml(form.Twiml);
    if (read === null) {
      badTwiml++;
      return jsonAnswer(res, 400, { code: 12100, message: 'Document parse failure', status: 400 });
    }
    const fault = scripted.shift();
    if (fault) return faultAnswer(res, fault);
    const call: GatewayCall = { sid: newSid(), to: form.To, from: form.From, twiml: form.Twiml, ...read, statusCallback: form.StatusCallback, at: new Date() };
    calls.push(call);
    return jsonAnswer(res, 201, { sid: call.sid, status: 'queued', to: call.to, from: call.from });
  }

  let gateway!: VoiceGateway;
  const server = twilioServer(
    (req, res, body) => {
      if (req.method !== 'POST' || req.url !== callsPath) return false;
      placeCall(req, res, body);
      return true;
    },
    pages && ((req, res, body) => pages(gateway, req, res, body)),
  );
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const callOf = (sid: string) => {
    const call = calls.find((c) => c.sid === sid);
    if (!call) throw new Error(`no call ${sid}`);
    return call;
  };

  gateway = {
    url,
    calls,
    get unauthorized() {
      return unauthorized;
    },
    get badTwiml() {
      return badTwiml;
    },
    env: { Voice__BaseUrl: url, Voice__AccountSid: options.accountSid, Voice__AuthToken: options.authToken, Voice__From: options.number },
    script: (...answers) => void scripted.push(...answers),
    setServiceUrl: callbacks.setServiceUrl,
    async status(sid, status, statusOptions) {
      const call = callOf(sid);
      if (!call.statusCallback) throw new Error(`call ${sid} has no StatusCallback`);
      const fields = { CallSid: sid, CallStatus: status, AccountSid: options.accountSid, To: call.to, From: call.from };
      return (await postSigned(call.statusCallback, fields, statusOptions?.signature)).status;
    },
    async press(sid, digits, pressOptions) {
      const call = callOf(sid);
      if (!call.gather) throw new Error(`call ${sid} asks for no key`);
      const fields = { CallSid: sid, Digits: digits, AccountSid: options.accountSid, To: call.to, From: call.from };
      const { status, text } = await postSigned(call.gather.action, fields, pressOptions?.signature);
      return { status, said: status === 200 ? (readTwiml(text)?.said ?? []) : [] };
    },
    callsTo: (number) => calls.filter((call) => call.to === number),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return gateway;
}
