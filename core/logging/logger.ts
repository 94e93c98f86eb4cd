import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createSecretScrubber, redactPaths, redactUrl, REDACTED } from './redaction.ts';

export interface LoggerSettings {
  level: string;
  secrets: readonly string[];
  /** Tests capture lines here; default stdout. */
  stream?: DestinationStream;
  /** One readable line per entry (pino-pretty) instead of JSON: see `wantsReadableLogs`. */
  readable?: boolean;
  /** Loads pino-pretty's line formatter (tests pass a missing one); null when it is not installed. */
  loadFormatter?: () => LineFormatter | null;
}

interface RequestLike {
  method?: string;
  url?: string;
  id?: string;
  ip?: string;
  /** The address the limits count (core/http/client-address.ts), where the request has it. */
  clientAddress?: string;
}

type LineFormatter = (line: string) => string;

/** Readable lines for a person at a terminal outside production; JSON lines for everything else (files, journald, collectors). */
export function wantsReadableLogs(nodeEnv: string, stdoutIsTerminal: boolean): boolean {
  return stdoutIsTerminal && nodeEnv !== 'production';
}

/**
 * pino-pretty is a devDependency: a host installed with --omit=dev has
 * none, and then the lines stay JSON (never a failed start).
 */
function loadPinoPretty(): LineFormatter | null {
  try {
    const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return prettyFactory({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return null;
  }
}

/** fastify's pino, structured, with secrets redacted by path and by value (before any formatting). */
export function createLogger(settings: LoggerSettings): Logger {
  const scrub = createSecretScrubber(settings.secrets);
  const sink = settings.stream ?? pino.destination({ dest: 1, sync: false });
  const format = settings.readable ? (settings.loadFormatter ?? loadPinoPretty)() : null;
  const destination: DestinationStream = format ? { write: (line: string) => void sink.write(format(line)) } : sink;
  return pino(
    {
      level: settings.level,
      redact: { paths: redactPaths, censor: REDACTED },
      hooks: { streamWrite: scrub },
      serializers: {
        req: (req: RequestLike) => ({
          method: req.method,
          url: req.url ? redactUrl(req.url) : req.url,
          id: req.id,
          remoteAddress: req.clientAddress ?? req.ip,
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
