import { Type, type DeliveryPluginContext } from '#plugin-api';

export const emailConfig = {
  EmailProvider: Type.Object({
    Host: Type.Optional(Type.String({ description: 'SMTP relay host of the email provider.' })),
    Port: Type.Integer({ minimum: 1, maximum: 65535, default: 587, description: 'SMTP relay port.' }),
    Secure: Type.Boolean({ default: false, description: 'TLS from the first byte (port 465); false uses STARTTLS when offered.' }),
    Username: Type.Optional(Type.String({ description: 'SMTP user name.' })),
    ApiKey: Type.Optional(Type.String({ 'x-secret': true, description: 'Key of the email provider, used as the SMTP password.' })),
    From: Type.String({ default: 'Outage alerts <alerts@localhost>', description: 'Sender of every email.' }),
    MaxConnections: Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'Pooled SMTP connections to the relay.' }),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 600, default: 30, description: 'Timeout of one SMTP connection, greeting or reply, in seconds.' }),
  }),
  EmailOutbox: Type.Object({
    IntervalSeconds: Type.Integer({ minimum: 1, default: 120, description: 'Period of the outbox worker sweep.' }),
    BatchSize: Type.Integer({ minimum: 50, maximum: 100, default: 50, description: 'Messages claimed per batch (50..100).' }),
    MaxAttempts: Type.Integer({ minimum: 1, default: 8, description: 'Send attempts before an item is dead.' }),
    RetryBaseSeconds: Type.Integer({
      minimum: 1,
      default: 30,
      description: 'First retry delay; it doubles with each attempt (with jitter), up to RetryMaxSeconds.',
    }),
    RetryMaxSeconds: Type.Integer({ minimum: 1, default: 3600, description: 'Longest delay between two send attempts.' }),
    LeaseSeconds: Type.Integer({
      minimum: 2,
      default: 30,
      description: 'How long an instance holds the items it is sending (renewed while it works); after that (a crash) another instance takes them over.',
    }),
    VerificationTtlHours: Type.Integer({ minimum: 1, maximum: 720, default: 48, description: 'How long the link of a verification email stays valid.' }),
  }),
};

/** The context core hands this plugin: its own sections typed. */
export type EmailContext = DeliveryPluginContext<typeof emailConfig>;
