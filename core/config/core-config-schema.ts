import Type, { type Static } from 'typebox';

/**
 * Core's own configuration sections. Each plugin adds its own sections
 * (manifest `config`); the composed schema is validated once at start.
 * `x-secret` marks values that are redacted from every log line.
 */
const Str = (description: string, extra: object = {}) => Type.String({ description, ...extra });

export const coreConfigSchema = Type.Object({
  NODE_ENV: Type.String({ default: 'development', description: 'Environment name: production in deployment.' }),
  Server: Type.Object(
    {
      Host: Str('Listen address (loopback only in deployment).', { default: '127.0.0.1' }),
      Port: Type.Integer({ minimum: 0, maximum: 65535, default: 5000, description: 'Listen port.' }),
      TrustedProxies: Type.Array(Type.String(), {
        default: ['loopback'],
        description: 'Comma-separated addresses, CIDR ranges or the names loopback, linklocal, uniquelocal: the proxies whose X-Forwarded-For is honoured.',
      }),
      BodyLimitBytes: Type.Integer({ minimum: 1024, default: 16384, description: 'Largest accepted request body.' }),
      RequestTimeoutSeconds: Type.Integer({
        minimum: 1,
        maximum: 3600,
        default: 30,
        description: 'A request (headers and body) not fully received within this time is answered 408 and closed.',
      }),
      ClockFollowsDatabase: Type.Boolean({
        default: true,
        description:
          "Judge quiet hours, retries and schedules by the database's clock (this host's clock plus its measured distance from the database's, every minute), so instances on hosts whose clocks drift still agree. false: this host's clock.",
      }),
      InstanceName: Type.Optional(
        Str(
          "This instance's name, the same across its restarts and unique among the running instances: a restarted instance takes back at once the deliveries its killed run held. Unset: this host and Server__Port.",
          { pattern: '^[A-Za-z0-9._:-]{1,100}$' },
        ),
      ),
    },
    { default: {} },
  ),
  Logging: Type.Object(
    {
      Level: Type.Union(
        [
          Type.Literal('fatal'),
          Type.Literal('error'),
          Type.Literal('warn'),
          Type.Literal('info'),
          Type.Literal('debug'),
          Type.Literal('trace'),
          Type.Literal('silent'),
        ],
        { default: 'info', description: 'Log level.' },
      ),
    },
    { default: {} },
  ),
  PublicBaseUrl: Str('Base of links put in emails (verify, unsubscribe) and alert feeds; its host names calendar UIDs and the CAP sender.', {
    default: 'http://127.0.0.1:5000',
    format: 'uri',
  }),
  ConnectionStrings: Type.Object(
    {
      DefaultConnection: Type.Optional(
        Str('PostgreSQL connection string (postgres://… or Host=…;Port=…;Database=…;Username=…;Password=…). Unset: embedded PGlite.', {
          'x-secret': true,
          minLength: 1,
        }),
      ),
    },
    { default: {} },
  ),
  Database: Type.Object(
    {
      EmbeddedPath: Type.Optional(Str('Folder of the embedded PGlite database (default: data/ in the project folder).', { minLength: 1 })),
      PoolMax: Type.Integer({ minimum: 2, maximum: 100, default: 10, description: 'Largest PostgreSQL connection pool.' }),
    },
    { default: {} },
  ),
  NotificationPipeline: Type.Object(
    {
      Enabled: Type.Boolean({ default: true, description: 'Master switch: when false no monitor runs and no event is delivered.' }),
      CooldownSeconds: Type.Integer({
        minimum: 0,
        default: 300,
        description: 'Per-subscription cooldown for /test and the update events feeds coalesce (Updated, EstimateUpdated).',
      }),
      MaxMessagesPerItem: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 5,
        description:
          "At most this many messages per subscription about one source item (an outage) in 24 hours; past it only the item's end (a restoration) is sent.",
      }),
      DispatchIntervalSeconds: Type.Integer({ minimum: 1, default: 5, description: "Period of each delivery lane's sweep (new work also wakes it at once)." }),
      DispatchBatchSize: Type.Integer({
        minimum: 1,
        maximum: 5000,
        default: 500,
        description: "Deliveries leased by one batch of a lane (a lane with a rate leases about one second's worth).",
      }),
      DispatchBatchesInFlight: Type.Integer({
        minimum: 1,
        maximum: 16,
        default: 3,
        description: 'Batches each lane works at once: the next is leased and settled while others are on the wire (a lane with a rate: at most 2).',
      }),
      FanoutPageSize: Type.Integer({
        minimum: 100,
        maximum: 20000,
        default: 2000,
        description:
          "Subscriptions matched and claimed per fan-out page: the first page in the hand-over's transaction, the rest streamed after it commits, one short transaction per page.",
      }),
      DeliveryLeaseSeconds: Type.Integer({
        minimum: 1,
        default: 30,
        description: 'How long an instance holds a delivery it is sending; after that (a crash) another instance takes it over.',
      }),
      MaxDeliveryAttempts: Type.Integer({
        minimum: 1,
        default: 10,
        description: 'Attempts of one delivery before it is recorded as failed (exponential backoff with jitter between them).',
      }),
      HoldAboveSubscriptions: Type.Integer({
        minimum: 0,
        default: 0,
        description:
          'An event that would reach more subscriptions than this waits, held, until an operator releases or discards it in the console (a feed glitch that announces every area at once). 0: off.',
      }),
      Rates: Type.Record(Type.String(), Type.Number({ minimum: 0 }), {
        default: {},
        description:
          "Messages a second each provider's peer takes, across every instance together (decimals allowed): NotificationPipeline__Rates__Sms=20. Unset: the plugin's default rate, if it declares one; 0: no limit.",
      }),
      SystemSubscriptions: Type.Record(
        Type.String(),
        Type.Object({
          FeedId: Str('Feed id of the system subscription.', { minLength: 1 }),
          PushTopic: Type.Optional(Str('Push topic of the system subscription (its Destination when Provider is Push).', { minLength: 1 })),
          Provider: Str('Delivery provider of the system subscription: any installed one (GET /api/notification-providers).', {
            minLength: 1,
            default: 'Push',
          }),
          Destination: Type.Optional(
            Str('Destination of the system subscription, for its provider (an email address for Email); PushTopic says it for Push.', { minLength: 1 }),
          ),
        }),
        {
          default: {},
          description:
            'System subscriptions: NotificationPipeline__SystemSubscriptions__<Name>__FeedId with __PushTopic, or with __Provider and __Destination.',
        },
      ),
    },
    { default: {} },
  ),
  ExternalProvider: Type.Object(
    {
      BaseUrl: Type.Optional(Str('Base address of the utility feed API.', { format: 'uri' })),
      ApiKey: Type.Optional(Str('Key sent as X-Api-Key to the utility feed API.', { 'x-secret': true })),
    },
    { default: {} },
  ),
  SubscriptionLimits: Type.Object(
    {
      MaxPerIp: Type.Integer({
        minimum: 0,
        default: 3,
        description: 'Live subscriptions (active, or email awaiting verification) created anonymously from one address.',
      }),
      MaxPerIpPerDay: Type.Integer({ minimum: 0, default: 3, description: 'Anonymous create requests per address per UTC day.' }),
      MaxSubscriptionsPerUser: Type.Integer({
        minimum: 0,
        default: 2,
        description: 'Live subscriptions (active, or email awaiting verification) of one authenticated user.',
      }),
      MaxVerificationsPerAddressPerDay: Type.Integer({
        minimum: 0,
        default: 3,
        description: 'Verification emails to one destination address (case-insensitive) per UTC day, whoever asks.',
      }),
      Ipv6PrefixLength: Type.Integer({
        minimum: 1,
        maximum: 128,
        default: 64,
        description: 'IPv6 clients are counted per network of this prefix length (one /64 is one client).',
      }),
    },
    { default: {} },
  ),
  Metrics: Type.Object(
    {
      Enabled: Type.Boolean({ default: true, description: 'Serve GET /metrics (Prometheus text format).' }),
      DatabaseCacheSeconds: Type.Integer({
        minimum: 0,
        maximum: 300,
        default: 5,
        description: 'How long the figures /metrics reads from the database (backlog, outbox, last successful polls) are reused.',
      }),
    },
    { default: {} },
  ),
  FeedHealth: Type.Object(
    {
      StaleAfterPolls: Type.Integer({
        minimum: 1,
        default: 5,
        description: 'A feed is stale once this many polls in a row have failed (no success for that many periods).',
      }),
      AlertTopic: Type.Optional(
        Str(
          'Push topic told once when a feed turns stale and once when it recovers; it must pass the push topic policy (list it in Notifications__Push__AllowedTopics). Unset: only the log says it.',
          { minLength: 1 },
        ),
      ),
    },
    { default: {} },
  ),
  Retention: Type.Object(
    {
      Days: Type.Integer({
        minimum: 7,
        default: 30,
        description:
          'Settled deliveries (with their logged attempts), "still out?" reports, and events no delivery references, are removed once older than this many days.',
      }),
      BatchSize: Type.Integer({ minimum: 100, maximum: 100000, default: 5000, description: 'Rows removed per statement by the retention worker.' }),
      IntervalSeconds: Type.Integer({ minimum: 60, default: 3600, description: 'Period of the retention worker (one run per period across all instances).' }),
    },
    { default: {} },
  ),
  Confirmation: Type.Object(
    {
      ListAfterMinutes: Type.Integer({
        minimum: 1,
        maximum: 1440,
        default: 15,
        description:
          'After the last message of an urgent alert a confirming subscriber did not confirm (the alert itself, or the last step of their escalation), minutes until it lands in the console\'s "Not confirmed" list.',
      }),
      IntervalSeconds: Type.Integer({
        minimum: 1,
        maximum: 3600,
        default: 30,
        description: 'How often every instance looks for escalation steps that are due (a step goes at most this long after its time).',
      }),
    },
    { default: {} },
  ),
  Jwt: Type.Object(
    {
      Secret: Type.Optional(Str('HS256 signing secret of caller tokens.', { 'x-secret': true, minLength: 16 })),
    },
    { default: {} },
  ),
  Console: Type.Object(
    {
      Oidc: Type.Object(
        {
          Issuer: Type.Optional(
            Str('The OpenID Connect provider operators sign in with (its issuer URL); unset: sign-in with an admin token only.', { format: 'uri' }),
          ),
          ClientId: Type.Optional(Str("The console's client id at the provider.", { minLength: 1 })),
          ClientSecret: Type.Optional(Str("The console's client secret at the provider.", { 'x-secret': true, minLength: 1 })),
          AdminRole: Str('The value the roles or groups claim must hold for a user to use the console.', { minLength: 1, default: 'notification-admin' }),
        },
        { default: {} },
      ),
      SessionHours: Type.Integer({ minimum: 1, maximum: 24, default: 8, description: 'How long a console sign-in lasts.' }),
      SessionSecret: Type.Optional(
        Str("Key material of the console's session cookie when Jwt__Secret is unset (the same on every instance).", { 'x-secret': true, minLength: 32 }),
      ),
    },
    { default: {} },
  ),
  Map: Type.Object(
    {
      TileUrl: Type.Optional(
        Str(
          "Map tiles for the pages' maps, an https (or http) address with {z}, {x} and {y}, and {s} first in the host for a server's a, b and c: https://{s}.tile.example.org/{z}/{x}/{y}.png. The pages may then load images from that host (and only images). Unset: the maps draw the shapes on a plain background with their areas' names.",
          { pattern: '^https?://(\\{s\\}\\.)?[A-Za-z0-9.-]+(:\\d{1,5})?/[^\\s]*$' },
        ),
      ),
      Attribution: Type.Optional(Str("What the tiles' terms ask the map to credit (shown in the map's corner), as plain text.", { maxLength: 300 })),
      Center: Type.Optional(
        Str('Where the maps open when there is nothing to show yet: "lat,lon" (7.2906,80.6337).', {
          pattern: '^-?\\d{1,2}(\\.\\d+)?,\\s*-?\\d{1,3}(\\.\\d+)?$',
        }),
      ),
      Zoom: Type.Integer({ minimum: 1, maximum: 18, default: 12, description: 'The zoom the maps open at around Map__Center.' }),
    },
    { default: {} },
  ),
  Geocoder: Type.Object(
    {
      BaseUrl: Type.Optional(
        Str("A geocoder that answers Nominatim's GET /search?q=…&format=jsonv2: the subscribe page then offers an address box. Unset: no address box.", {
          format: 'uri',
        }),
      ),
      TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 30, default: 5, description: 'Timeout of one request to the geocoder.' }),
      RequestsPerSecond: Type.Number({
        minimum: 0.1,
        maximum: 100,
        default: 1,
        description:
          "Searches this instance sends the geocoder a second at most (Nominatim's public servers ask for 1): a search waits its turn up to 2 s, and is answered 429 beyond.",
      }),
    },
    { default: {} },
  ),
});

export type CoreConfig = Static<typeof coreConfigSchema>;
