/** Where the demo's own servers listen, and what the service needs to reach them. */
export interface DemoWiring {
  servicePort: number;
  databaseDir: string;
  timeZone: string;
  feed: { baseUrl: string; apiKey: string };
  /** The settings of the plugins' demo parts (each plugin's double: its address, its keys). */
  parts: ReadonlyArray<{ readonly plugin: string; readonly env: Readonly<Record<string, string>> }>;
  /** The secret bearer tokens are signed with: the demo prints an admin token for it. */
  jwtSecret: string;
  /** The local address search (Nominatim's /search). */
  geocoder: { baseUrl: string };
}

/**
 * The configuration the demo gives the service (nothing else of the caller's
 * environment reaches it, so a PostgreSQL connection string or a .env file
 * meant for `npm start` cannot leak in): the embedded database in the demo's
 * temporary folder, both feeds polled every 5 s from the sample feed, both
 * system subscriptions (with the push target installed), each delivery
 * target pointed at its plugin's demo double (its part's settings), links
 * to the service itself, times in the machine's zone, a token secret (the
 * demo prints an admin token), maps that open on Kandy with the local
 * address search (and no tiles: the demo needs no network), and limits and
 * cooldowns loose enough to try things several times.
 */
export function demoServiceEnv(w: DemoWiring): Record<string, string> {
  const serviceUrl = `http://127.0.0.1:${w.servicePort}`;
  // The feeds' system subscriptions are push topics: offered when push is in the demo.
  const systemSubscriptions = w.parts.some((part) => part.plugin === 'delivery-push')
    ? {
        NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: 'utility.power-outages',
        NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: 'utility.scheduled-outages',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: 'utility-scheduled-outages',
      }
    : {};
  return {
    NODE_ENV: 'development',
    Server__Host: '127.0.0.1',
    Server__Port: String(w.servicePort),
    PublicBaseUrl: serviceUrl,
    Database__EmbeddedPath: w.databaseDir,
    ExternalProvider__BaseUrl: w.feed.baseUrl,
    ExternalProvider__ApiKey: w.feed.apiKey,
    PowerOutages__Enabled: 'true',
    PowerOutages__PollingIntervalSeconds: '5',
    PowerOutages__TimeZone: w.timeZone,
    ScheduledOutages__Enabled: 'true',
    ScheduledOutages__PollingIntervalSeconds: '5',
    ScheduledOutages__TimeZone: w.timeZone,
    ...systemSubscriptions,
    NotificationPipeline__CooldownSeconds: '30',
    ...Object.assign({}, ...w.parts.map((part) => part.env)),
    SubscriptionLimits__MaxPerIp: '100',
    SubscriptionLimits__MaxPerIpPerDay: '1000',
    SubscriptionLimits__MaxSubscriptionsPerUser: '100',
    Jwt__Secret: w.jwtSecret,
    Map__Center: '7.2906,80.6337',
    Map__Zoom: '10',
    Geocoder__BaseUrl: w.geocoder.baseUrl,
    Geocoder__RequestsPerSecond: '5',
  };
}

/** The few variables of the caller's environment a Node process needs to run (never configuration). */
export function baseProcessEnv(env: NodeJS.ProcessEnv, tmpDir: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot']) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return { ...kept, TMPDIR: tmpDir };
}
