import { Type } from '#plugin-api';

export const smsConfig = {
  Sms: Type.Object({
    BaseUrl: Type.String({ format: 'uri', default: 'https://api.twilio.com', description: "Base address of the gateway speaking Twilio's Messages API." }),
    AccountSid: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{1,64}$', description: 'Account SID at the gateway (the Basic auth user, and part of the Messages path).' })),
    AuthToken: Type.Optional(Type.String({ 'x-secret': true, description: "Auth token at the gateway: the Basic auth password, and the key of the gateway's request signatures." })),
    From: Type.Optional(Type.String({ description: 'Sender number (E.164) or alphanumeric sender ID of every text.' })),
    MessagingServiceSid: Type.Optional(Type.String({ description: 'Messaging service that picks the sender; used instead of From when set.' })),
    DefaultRegion: Type.Optional(
      Type.String({ pattern: '^[A-Z]{2}$', description: 'Country (ISO 3166 alpha-2, e.g. LK) a national number is read in; without it a number must start with +.' }),
    ),
    MaxSegments: Type.Integer({ minimum: 1, maximum: 10, default: 2, description: 'Segments a notification text may take (160 GSM-7 or 70 UCS-2 characters in one; 153 / 67 each when split).' }),
    HelpText: Type.Optional(Type.String({ maxLength: 320, description: 'Answer to HELP, INFO and any reply that is not a keyword. Default: who sends these alerts, and that STOP stops them.' })),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120, default: 15, description: 'Timeout of one request to the gateway, in seconds.' }),
    Connections: Type.Integer({ minimum: 1, maximum: 128, default: 8, description: 'Keep-alive connections to the gateway.' }),
    CodeTtlMinutes: Type.Integer({ minimum: 5, maximum: 1440, default: 30, description: 'How long a verification code stays valid.' }),
  }),
  SmsOutbox: Type.Object({
    IntervalSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Period of the verification-text sweep.' }),
    MaxAttempts: Type.Integer({ minimum: 1, default: 6, description: 'Send attempts of a verification text before it is given up.' }),
    RetryBaseSeconds: Type.Integer({ minimum: 1, default: 30, description: 'First retry delay of a verification text; it doubles with each attempt, up to 1 hour.' }),
    LeaseSeconds: Type.Integer({ minimum: 2, default: 30, description: 'How long an instance holds the verification texts it is sending before another may take them over.' }),
  }),
};
