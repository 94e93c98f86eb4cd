import { startFeedApiServer, type FeedSend } from '../../demo/sample-feed/feed-api-server.ts';

export type FeedFault = 'http500' | 'badJson' | 'wrongShape' | 'slow';

export interface UtilityFeedDouble {
  baseUrl: string;
  apiKey: string;
  /** Requests per path, counted before faults and auth. */
  requests: Record<string, number>;
  /** Answers with ETag / 304 when true (default); false exercises the content-hash fallback. */
  etags: boolean;
  setPowerOutages(outages: unknown[]): void;
  setScheduledOutages(outages: unknown[]): void;
  /** Serves `answer` as JSON at `path` (`/water-outages`) from now on. */
  setAnswer(path: string, answer: unknown): void;
  /** The next `times` answers of any path fail this way (`slow`: wait `delayMs` first). */
  fault(kind: FeedFault, times?: number, delayMs?: number): void;
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
  const faults: Array<{ kind: FeedFault; delayMs: number }> = [];
  const double: Omit<UtilityFeedDouble, 'baseUrl' | 'close'> = {
    apiKey,
    requests: {},
    etags: true,
    setPowerOutages: (outages) => void (powerOutages = outages),
    setScheduledOutages: (outages) => void (scheduledOutages = outages),
    setAnswer: (path, answer) => void (answers[path] = () => answer),
    fault: (kind, times = 1, delayMs = 0) => {
      for (let i = 0; i < times; i += 1) faults.push({ kind, delayMs });
    },
  };
  const intercept = async (send: FeedSend): Promise<boolean> => {
    const fault = faults.shift();
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.kind === 'http500') send(500, '{"error":"internal"}');
    else if (fault?.kind === 'badJson') send(200, '{"outages": [ {"id": ');
    else if (fault?.kind === 'wrongShape') send(200, JSON.stringify({ outages: [{ id: 42, feeder: null }] }));
    else return false;
    return true;
  };
  const answers: Record<string, () => unknown> = {
    // An unknown extra field, which the service must ignore.
    '/power-outages': () => ({ outages: powerOutages, generatedBy: 'utility-feed-double' }),
    '/scheduled-outages': () => ({ outages: scheduledOutages }),
  };
  const server = await startFeedApiServer({
    apiKey,
    answers,
    onRequest: (path) => void (double.requests[path] = (double.requests[path] ?? 0) + 1),
    intercept,
    etags: () => double.etags,
  });
  return Object.assign(double, { baseUrl: server.baseUrl, close: server.close }) as UtilityFeedDouble;
}
