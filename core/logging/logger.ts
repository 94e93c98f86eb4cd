import { pino, type DestinationStream, type Logger } from 'pino';
import { createSecretScrubber, redactPaths, redactUrl, REDACTED } from './redaction.ts';

export interface LoggerSettings {
  level: string;
  secrets: readonly string[];
  /** Tests capture lines here; default stdout. */
  stream?: DestinationStream;
}

interface RequestLike {
  method?: string;
  url?: string;
  id?: string;
  ip?: string;
}

/** fastify's pino, structured, with secrets redacted by path and by value. */
export function createLogger(settings: LoggerSettings): Logger {
  const scrub = createSecretScrubber(settings.secrets);
  return pino(
    {
      level: settings.level,
      redact: { paths: redactPaths, censor: REDACTED },
      hooks: { streamWrite: scrub },
      serializers: {
        req: (req: RequestLike) => ({ method: req.method, url: req.url ? redactUrl(req.url) : req.url, id: req.id, remoteAddress: req.ip }),
        err: pino.stdSerializers.err,
      },
    },
    settings.stream ?? pino.destination({ dest: 1, sync: false }),
  );
}
