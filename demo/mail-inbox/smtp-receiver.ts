import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { listenOnLoopback } from '../web/loopback.ts';

/**
 * The receiving end of SMTP on 127.0.0.1, as a relay on a developer's machine
 * would offer it: plain text, no STARTTLS, AUTH PLAIN or LOGIN. Each message
 * is handed over whole once its DATA is in; the caller decides the reply. The
 * demo's mail inbox and the tests' SMTP double both stand on it.
 */
export interface ReceivedMessage {
  /** The message as sent (headers and body); empty when bodies are not kept. */
  readonly raw: Buffer;
  readonly envelopeFrom: string;
  readonly envelopeTo: readonly string[];
  /** The user name of the login, if any. */
  readonly user: string | undefined;
}

/** An SMTP reply: no error accepts the message (250 with `queuedAs`), an error with `responseCode` refuses it. */
export type SmtpReply = (error?: (Error & { responseCode?: number }) | null, queuedAs?: string) => void;

export interface SmtpReceiverOptions {
  /** Whether a login is accepted (a refused one gets 535). */
  checkLogin(username: string, password: string): boolean;
  /** Whether a client may send without logging in. Default false. */
  authOptional?: boolean;
  /** false: message bodies are read and dropped (benchmarks). Default true. */
  keepBodies?: boolean;
  /** Called once the DATA of a message is in; the message waits for `reply`. */
  onMessage(message: ReceivedMessage, reply: SmtpReply): void;
  /** Called on each refused login. */
  onLoginRefused?(): void;
}

export interface SmtpReceiver {
  readonly port: number;
  close(): Promise<void>;
}

export async function startSmtpReceiver(options: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const keep = options.keepBodies !== false;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.authOptional ?? false,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (options.checkLogin(auth.username ?? '', auth.password ?? '')) return callback(null, { user: auth.username });
      options.onLoginRefused?.();
      return callback(Object.assign(new Error('Invalid username or API key'), { responseCode: 535 }));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => void (keep && chunks.push(chunk)));
      stream.on('end', () => {
        options.onMessage(
          {
            raw: Buffer.concat(chunks),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === 'string' ? session.user : undefined,
          },
          (error, queuedAs) => (error ? callback(error) : callback(null, queuedAs)),
        );
      });
    },
  });
  const port = await listenOnLoopback(server.server);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
