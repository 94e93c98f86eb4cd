import { Type, type DeliveryPluginContext } from '#plugin-api';

export const voiceConfig = {
  Voice: Type.Object({
    BaseUrl: Type.String({ format: 'uri', default: 'https://api.twilio.com', description: "Base address of the gateway speaking Twilio's Voice API." }),
    AccountSid: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9]{1,64}$', description: 'Account SID at the gateway (the Basic auth user, and part of the Calls path).' }),
    ),
    AuthToken: Type.Optional(
      Type.String({ 'x-secret': true, description: "Auth token at the gateway: the Basic auth password, and the key of the gateway's request signatures." }),
    ),
    From: Type.Optional(Type.String({ description: 'The number (E.164) every call comes from.' })),
    DefaultRegion: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{2}$',
        description: 'Country (ISO 3166 alpha-2, e.g. LK) a national number is read in; without it a number must start with +.',
      }),
    ),
    Voices: Type.String({
      default: 'en=en-GB,ta=ta-IN',
      description:
        "The languages the gateway has a voice for: a language of the service, '=', the tag its <Say language> takes, comma-separated. A subscriber whose language has none is called in English (the destination's hint on the subscribe page says so).",
    }),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120, default: 15, description: 'Timeout of one request to the gateway, in seconds.' }),
    Connections: Type.Integer({ minimum: 1, maximum: 128, default: 4, description: 'Keep-alive connections to the gateway.' }),
    CodeTtlMinutes: Type.Integer({ minimum: 5, maximum: 1440, default: 30, description: 'How long a verification code stays valid.' }),
  }),
  VoiceOutbox: Type.Object({
    IntervalSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Period of the verification-call sweep.' }),
    MaxAttempts: Type.Integer({ minimum: 1, default: 4, description: 'Attempts of a verification call before it is given up.' }),
    RetryBaseSeconds: Type.Integer({
      minimum: 1,
      default: 60,
      description: 'First retry delay of a verification call; it doubles with each attempt, up to 1 hour.',
    }),
    LeaseSeconds: Type.Integer({
      minimum: 2,
      default: 30,
      description: 'How long an instance holds the verification calls it is placing before another may take them over.',
    }),
  }),
};

/** The context core hands this plugin: its own sections typed. */
export type VoiceContext = DeliveryPluginContext<typeof voiceConfig>;
