import { Type, type DeliveryPluginContext } from '#plugin-api';

export const smsConfig = {
  Sms: Type.Object({
    BaseUrl: Type.String({ format: 'uri', default: 'https://api.twilio.com', description: "Base address of the gateway speaking Twilio's Messages API." }),
    AccountSid: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9]{1,64}$', description: 'Account SID at the gateway (the Basic auth user, and part of the Messages path).' }),
    ),
    AuthToken: Type.Optional(
      Type.String({ 'x-secret': true, description: "Auth token at the gateway: the Basic auth password, and the key of the gateway's request signatures." }),
    ),
    From: Type.Optional(Type.String({ description: 'Sender number (E.164) or alphanumeric sender ID of every text.' })),
    MessagingServiceSid: Type.Optional(Type.String({ description: 'Messaging service that picks the sender; used instead of From when set.' })),
    DefaultRegion: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{2}$',
        description: 'Country (ISO 3166 alpha-2, e.g. LK) a national number is read in; without it a number must start with +.',
      }),
    ),
    Gateways: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,31}$' }),
        Type.Object({
          BaseUrl: Type.String({ format: 'uri', default: 'https://api.twilio.com', description: "Base address of this gateway (Twilio's Messages API)." }),
          AccountSid: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$', description: 'Account SID at this gateway.' }),
          AuthToken: Type.String({ 'x-secret': true, description: 'Auth token at this gateway (its Basic auth password and the key of its signatures).' }),
          From: Type.Optional(Type.String({ description: 'Sender number or ID at this gateway.' })),
          MessagingServiceSid: Type.Optional(Type.String({ description: 'Messaging service at this gateway; instead of From.' })),
          Order: Type.Integer({
            default: 100,
            description: 'Where it comes in the order gateways are tried (lowest first; then by name). The gateway of Sms__AccountSid comes before them all.',
          }),
        }),
        {
          description:
            'More gateways, by name (Sms__Gateways__Backup__AccountSid=…): when the one tried is down (refuses the connection, answers 5xx, 401 or 403, or does not answer in time), texts go to the next for a minute. Each has its own keep-alive connections; the SMS lane and its rate are shared.',
        },
      ),
    ),
    MaxSegments: Type.Integer({
      minimum: 1,
      maximum: 10,
      default: 2,
      description: 'Segments a notification text may take (160 GSM-7 or 70 UCS-2 characters in one; 153 / 67 each when split).',
    }),
    HelpText: Type.Optional(
      Type.String({
        maxLength: 320,
        description: 'Answer to HELP, INFO and any reply that is not a keyword. Default: who sends these alerts, and that STOP stops them.',
      }),
    ),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120, default: 15, description: 'Timeout of one request to the gateway, in seconds.' }),
    Connections: Type.Integer({ minimum: 1, maximum: 128, default: 8, description: 'Keep-alive connections to the gateway.' }),
    CodeTtlMinutes: Type.Integer({ minimum: 5, maximum: 1440, default: 30, description: 'How long a verification code stays valid.' }),
  }),
  SmsOutbox: Type.Object({
    IntervalSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Period of the verification-text sweep.' }),
    MaxAttempts: Type.Integer({ minimum: 1, default: 6, description: 'Send attempts of a verification text before it is given up.' }),
    RetryBaseSeconds: Type.Integer({
      minimum: 1,
      default: 30,
      description: 'First retry delay of a verification text; it doubles with each attempt, up to 1 hour.',
    }),
    LeaseSeconds: Type.Integer({
      minimum: 2,
      default: 30,
      description: 'How long an instance holds the verification texts it is sending before another may take them over.',
    }),
  }),
};

/** The context core hands this plugin: its own sections typed. */
export type SmsContext = DeliveryPluginContext<typeof smsConfig>;
