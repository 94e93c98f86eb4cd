import nodemailer from 'nodemailer';
import { headerText } from './email-address.ts';
import type { ComposedEmail } from './email-composer.ts';
import { classifySendError, type SendResult, type SmtpErrorLike } from './outbox-policy.ts';

export interface SmtpSettings {
  readonly Host?: string;
  readonly Port: number;
  readonly Secure: boolean;
  readonly Username?: string;
  readonly ApiKey?: string;
  readonly From: string;
  readonly MaxConnections: number;
  readonly TimeoutSeconds: number;
}

export interface OutgoingEmail extends ComposedEmail {
  readonly to: string;
  readonly subject: string;
  /** Stable per outbox item, so a resend after a crash carries the same Message-ID. */
  readonly messageId: string;
  /** The Message-ID of the email this one answers (the first of its thread): In-Reply-To. */
  readonly inReplyTo?: string;
  /** References: the thread's first Message-ID. */
  readonly references?: string;
}

export interface SmtpSender {
  readonly configured: boolean;
  /** The domain of the From address (for Message-IDs). */
  readonly fromDomain: string;
  send(email: OutgoingEmail): Promise<SendResult>;
  close(): Promise<void>;
}

const NOT_CONFIGURED: SendResult = { kind: 'rejected', permanent: false, reason: 'SMTP relay not configured (EmailProvider__Host is unset)' };

/**
 * One pooled nodemailer transport to the relay (the API key is the SMTP
 * password). Messages queue on the pool's connections; each send answers
 * with the relay's verdict. Nothing here logs: the caller logs ids, states
 * and reply codes, never the key or a message.
 */
export function createSmtpSender(settings: SmtpSettings): SmtpSender {
  const from = parseFrom(settings.From);
  const timeout = settings.TimeoutSeconds * 1000;
  const transport = settings.Host
    ? nodemailer.createTransport({
        pool: true,
        host: settings.Host,
        port: settings.Port,
        secure: settings.Secure,
        maxConnections: settings.MaxConnections,
        // A connection is replaced after this many messages; reconnecting often costs throughput for nothing.
        maxMessages: 1000,
        auth: settings.Username || settings.ApiKey ? { user: settings.Username ?? '', pass: settings.ApiKey ?? '' } : undefined,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        logger: false,
        debug: false,
      })
    : undefined;

  return {
    configured: transport !== undefined,
    fromDomain: from.address.split('@')[1] ?? 'localhost',
    async send(email) {
      if (!transport) return NOT_CONFIGURED;
      try {
        const info = await transport.sendMail({
          from,
          // An address object, never a string nodemailer would parse as a list.
          to: { name: '', address: email.to },
          subject: headerText(email.subject),
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          ...(email.inReplyTo ? { inReplyTo: email.inReplyTo, references: email.references ?? email.inReplyTo } : {}),
          headers: { ...email.headers, 'Auto-Submitted': 'auto-generated' },
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        const accepted = info.accepted.length > 0 && info.rejected.length === 0;
        return accepted ? { kind: 'accepted', response: String(info.response ?? '') } : { kind: 'rejected', permanent: true, reason: 'recipient refused' };
      } catch (err) {
        return { kind: 'rejected', ...classifySendError(err as SmtpErrorLike) };
      }
    },
    async close() {
      transport?.close();
    },
  };
}

/** `Name <address>` or a bare address, from config; the name is kept to one line. */
function parseFrom(value: string): { name: string; address: string } {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (match) return { name: headerText(match[1].replace(/^"(.*)"$/, '$1')), address: match[2] };
  return { name: '', address: value.trim() };
}
