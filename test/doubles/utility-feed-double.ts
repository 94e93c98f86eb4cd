import type { ServerResponse } from 'node:http';
import { startFeedApiServer, type FeedSend } from '../../demo/sample-feed/feed-api-server.ts';

export type FeedFault = 'http500' | 'badJson' | 'wrongShape' | 'slow' | 'huge';

export interface UtilityFeedDouble {
  baseUrl: string;
  apiKey: string;
  /** Requests per path, counted before faults and auth. */
  requests: Record<string, number>;
  /** Answers with ETag / 304 when true (default); false exercises the content-hash fallback. */
  etags: boolean;
  setPowerOutages(outages: unknown[]): void;
  setScheduledOutages(outages: unknown[]): void;
  /** Serves `answer` as JSON at `path` (`/water-outages`) from now on (a RawJson as it is), until setPowerOutages or setScheduledOutages of that path. */
  setAnswer(path: string, answer: unknown): void;
  /** The next `times` answers of any path fail this way (`slow`: wait `delayMs` first). */
  fault(kind: FeedFault, times?: number, delayMs?: number): void;
  /**
   * The next answer is `bytes` of valid JSON (an outages list), written in
   * 64 KiB chunks as the reader takes them: chunked, or with its
   * Content-Length when `contentLength`. `sent` counts what went out.
   */
  huge(bytes: number, options?: { contentLength?: boolean }): void;
  /** Bytes of the huge answers written so far (a reader that stops at its limit keeps this far below what was asked). */
  readonly sent: { bytes: number; finished: boolean };
  close(): Promise<void>;
}

/**
 * The utility's feed API (the demo's feed API server) with outages set by
 * the test and switchable faults for the "a bad answer fails that poll
 * only" tests.
 */
export async function startUtilityFeedDouble(apiKey = 'feed-key-0123456789'): Promise<UtilityFeedDouble> {
  let powerOutages: unknown[] = [];
  let scheduledOutages: unknown[] = [];
  const faults: Array<{ kind: FeedFault; delayMs: number; bytes?: number; contentLength?: boolean }> = [];
  const sent = { bytes: 0, finished: false };
  const double: Omit<UtilityFeedDouble, 'baseUrl' | 'close'> = {
    apiKey,
    requests: {},
    etags: true,
    setPowerOutages: (outages) => {
      powerOutages = outages;
      answers['/power-outages'] = powerAnswer;
    },
    setScheduledOutages: (outages) => {
      scheduledOutages = outages;
      answers['/scheduled-outages'] = scheduledAnswer;
    },
    setAnswer: (path, answer) => void (answers[path] = () => answer),
    fault: (kind, times = 1, delayMs = 0) => {
      for (let i = 0; i < times; i += 1) faults.push({ kind, delayMs });
    },
    huge: (bytes, options = {}) => void faults.push({ kind: 'huge', delayMs: 0, bytes, contentLength: options.contentLength }),
    sent,
  };
  const intercept = async (send: FeedSend, response: ServerResponse): Promise<boolean> => {
    const fault = faults.shift();
    if (fault?.kind === 'huge') {
      await streamHugeAnswer(response, fault.bytes!, fault.contentLength === true, sent);
      return true;
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.kind === 'http500') send(500, '{"error":"internal"}');
    else if (fault?.kind === 'badJson') send(200, '{"outages": [ {"id": ');
    // The answer as a whole is wrong (its list is no list): a bad item alone is left out, a bad answer fails the poll.
    else if (fault?.kind === 'wrongShape') send(200, JSON.stringify({ outages: { id: 42, feeder: null } }));
    else return false;
    return true;
  };
  // An unknown extra field, which the service must ignore.
  const powerAnswer = () => ({ outages: powerOutages, generatedBy: 'utility-feed-double' });
  const scheduledAnswer = () => ({ outages: scheduledOutages });
  const answers: Record<string, () => unknown> = { '/power-outages': powerAnswer, '/scheduled-outages': scheduledAnswer };
  const server = await startFeedApiServer({
    apiKey,
    answers,
    onRequest: (path) => void (double.requests[path] = (double.requests[path] ?? 0) + 1),
    intercept,
    etags: () => double.etags,
  });
  return Object.assign(double, { baseUrl: server.baseUrl, close: server.close }) as UtilityFeedDouble;
}

/** `bytes` of `{"outages":[…]}`, valid JSON, written a chunk at a time as the socket drains; stops when the reader goes away. */
async function streamHugeAnswer(response: ServerResponse, bytes: number, contentLength: boolean, sent: { bytes: number; finished: boolean }): Promise<void> {
  sent.bytes = 0;
  sent.finished = false;
  const head = '{"outages":[';
  const tail = ']}';
  const item = (n: number) =>
    JSON.stringify({ id: `HUGE-${String(n).padStart(9, '0')}`, feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null });
  const itemBytes = Buffer.byteLength(item(0)) + 1;
  const count = Math.max(1, Math.floor((bytes - head.length - tail.length) / itemBytes));
  let gone = false;
  response.on('close', () => (gone = true));
  response.writeHead(200, {
    'content-type': 'application/json',
    ...(contentLength ? { 'content-length': String(head.length + tail.length + count * itemBytes - 1) } : {}),
  });
  const write = async (text: string) => {
    sent.bytes += Buffer.byteLength(text);
    if (!response.write(text))
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
  };
  await write(head);
  const perChunk = Math.max(1, Math.floor(65_536 / itemBytes));
  for (let n = 0; n < count && !gone; n += perChunk) {
    const last = Math.min(count, n + perChunk);
    const parts: string[] = [];
    for (let i = n; i < last; i += 1) parts.push(item(i));
    await write((n === 0 ? '' : ',') + parts.join(','));
  }
  if (gone) return;
  await write(tail);
  response.end();
  sent.finished = true;
}
