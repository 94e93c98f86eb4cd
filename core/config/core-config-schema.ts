import Type, { type Static } from 'typebox';

/**
 * Core's own configuration sections. Each plugin adds its own sections
 * (manifest `config`); the composed schema is validated once at start.
 * `x-secret` marks values that are redacted from every log line.
 */
const Str = (description: string, extra: object = {}) => Type.String({ description, ...extra });

export const coreConfigSchema = Type.Object({
  NODE_ENV: Type.String({ default: 'development', description: 'Environment name: production in deployment.' }),
  Server: Type.Object({
    Host: Str('Listen address (loopback only in deployment).', { default: '127.0.0.1' }),
    Port: Type.Integer({ minimum: 0, maximum: 65535, default: 5000, description: 'Listen port.' }),
    TrustedProxies: Type.Array(Type.String(), {
      default: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
      description: 'Comma-separated addresses whose X-Forwarded-For is honoured.',
    }),
    BodyLimitBytes: Type.Integer({ minimum: 1024, default: 16384, description: 'Largest accepted request body.' }),
  }, { default: {} }),
  Logging: Type.Object({
    Level: Type.Union([
      Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'),
      Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent'),
    ], { default: 'info', description: 'Log level.' }),
  }, { default: {} }),
  PublicBaseUrl: Str('Base of links put in emails (verify, unsubscribe).', { default: 'http://127.0.0.1:5000', format: 'uri' }),
  ConnectionStrings: Type.Object({
    DefaultConnection: Type.Optional(Str(
      'PostgreSQL connection string (postgres://… or Host=…;Port=…;Database=…;Username=…;Password=…). Unset: embedded PGlite.',
      { 'x-secret': true, minLength: 1 },
    )),
  }, { default: {} }),
  Database: Type.Object({
    EmbeddedPath: Type.Optional(Str('Folder of the embedded PGlite database (default: data/ in the project folder).', { minLength: 1 })),
    PoolMax: Type.Integer({ minimum: 2, maximum: 100, default: 10, description: 'Largest PostgreSQL connection pool.' }),
  }, { default: {} }),
  NotificationPipeline: Type.Object({
    Enabled: Type.Boolean({ default: true, description: 'Master switch: when false no monitor runs and no event is delivered.' }),
    CooldownSeconds: Type.Integer({ minimum: 0, default: 300, description: 'Per-subscription cooldown for /test and coalesced Updated events.' }),
    DispatchIntervalSeconds: Type.Integer({ minimum: 1, default: 5, description: 'Period of the delivery dispatcher sweep (new work also wakes it at once).' }),
    DispatchBatchSize: Type.Integer({ minimum: 1, maximum: 5000, default: 500, description: 'Deliveries claimed by one dispatcher batch.' }),
    DeliveryLeaseSeconds: Type.Integer({ minimum: 1, default: 30, description: 'How long an instance holds a delivery it is sending; after that (a crash) another instance takes it over (contracts: within 30 s).' }),
    MaxDeliveryAttempts: Type.Integer({ minimum: 1, default: 10, description: 'Attempts of one delivery before it is recorded as failed (exponential backoff with jitter between them).' }),
    SystemSubscriptions: Type.Record(Type.String(), Type.Object({
      FeedId: Str('Feed id of the system subscription.', { minLength: 1 }),
      PushTopic: Str('Push topic of the system subscription.', { minLength: 1 }),
    }), { default: {}, description: 'System subscriptions: NotificationPipeline__SystemSubscriptions__<Name>__FeedId / __PushTopic.' }),
  }, { default: {} }),
  ExternalProvider: Type.Object({
    BaseUrl: Type.Optional(Str('Base address of the utility feed API.', { format: 'uri' })),
    ApiKey: Type.Optional(Str('Key sent as X-Api-Key to the utility feed API.', { 'x-secret': true })),
  }, { default: {} }),
  SubscriptionLimits: Type.Object({
    MaxPerIp: Type.Integer({ minimum: 0, default: 3, description: 'Active subscriptions created anonymously from one address.' }),
    MaxPerIpPerDay: Type.Integer({ minimum: 0, default: 3, description: 'Anonymous create requests per address per UTC day.' }),
    MaxSubscriptionsPerUser: Type.Integer({ minimum: 0, default: 2, description: 'Active subscriptions of one authenticated user.' }),
  }, { default: {} }),
  Jwt: Type.Object({
    Secret: Type.Optional(Str('HS256 signing secret of caller tokens.', { 'x-secret': true, minLength: 16 })),
  }, { default: {} }),
});

export type CoreConfig = Static<typeof coreConfigSchema>;
