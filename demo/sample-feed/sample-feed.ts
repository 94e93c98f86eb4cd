import { randomBytes } from 'node:crypto';
import { startFeedApiServer } from './feed-api-server.ts';
import { describeChanges, scriptedFeedAt, type FeedState } from './scripted-day.ts';

export interface SampleFeed {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Starts the scripted day now; until then the feed answers empty lists. */
  begin(): void;
  close(): Promise<void>;
}

const EMPTY: FeedState = { powerOutages: [], scheduledOutages: [] };

/**
 * The sample utility feed of the demo: the feed API (X-Api-Key, ETag) on
 * 127.0.0.1, answering the scripted day's state at the moment of each
 * request, and telling `log` what changes as the day goes on.
 */
export async function startSampleFeed(options: { timeZone: string; log: (message: string) => void }): Promise<SampleFeed> {
  const apiKey = `demo-feed-${randomBytes(12).toString('base64url')}`;
  let startedAt: Date | undefined;
  const current = (): FeedState => (startedAt === undefined ? EMPTY : scriptedFeedAt((Date.now() - startedAt.getTime()) / 1000, startedAt, options.timeZone));

  let shown = EMPTY;
  const tell = () => {
    const next = current();
    for (const line of describeChanges(shown, next)) options.log(line);
    shown = next;
  };
  let ticker: NodeJS.Timeout | undefined;

  const server = await startFeedApiServer({
    apiKey,
    answers: {
      '/power-outages': () => ({ outages: current().powerOutages }),
      '/scheduled-outages': () => ({ outages: current().scheduledOutages }),
    },
  });
  return {
    baseUrl: server.baseUrl,
    apiKey,
    begin() {
      startedAt = new Date();
      tell();
      ticker = setInterval(tell, 1000);
    },
    async close() {
      clearInterval(ticker);
      await server.close();
    },
  };
}
